/**
 * A separate reading of what a use-case pick's reason claims of its plans, written from the rule
 * docs/dataset.md states (not imported from the service): "dedicated" or "shared" followed within four
 * words by vCPU(s), CPU(s), core(s) or plan(s) claims that CPU type, unless the reason names both kinds;
 * exactly one disk technology named (NVMe, SSD, HDD, MaxIOPS) claims a plan whose disk text names it.
 */
export function claimsOf(reason: string): { cpuType?: 'shared' | 'dedicated'; disk?: string } {
  const words = reason.split(/\s+/).map((w) => w.replace(/[^\w-]/g, '').toLowerCase());
  const kinds = new Set<string>();
  words.forEach((word, i) => {
    if (word !== 'dedicated' && word !== 'shared') return;
    if (
      words
        .slice(i + 1, i + 6)
        .some((next) => ['cpu', 'cpus', 'vcpu', 'vcpus', 'core', 'cores', 'plan', 'plans'].includes(next))
    )
      kinds.add(word);
  });
  const disks = new Set(['nvme', 'ssd', 'hdd', 'maxiops'].filter((d) => words.includes(d)));
  const disk =
    disks.size === 1 ? { nvme: 'NVMe', ssd: 'SSD', hdd: 'HDD', maxiops: 'MaxIOPS' }[[...disks][0]] : undefined;
  return {
    ...(kinds.size === 1 ? { cpuType: [...kinds][0] as 'shared' | 'dedicated' } : {}),
    ...(disk ? { disk } : {}),
  };
}

/** True when a raw plan has what the claims say. */
export function hasClaimed(
  plan: { cpuType: string; storage: string },
  claims: { cpuType?: string; disk?: string },
): boolean {
  return (
    (!claims.cpuType || plan.cpuType === claims.cpuType) &&
    (!claims.disk || plan.storage.split(' ').includes(claims.disk))
  );
}
