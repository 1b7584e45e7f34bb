import type { CpuType } from './dto/plan.dto.js';

/**
 * What a use-case pick's reason says about the plans it recommends, read from its words, so the plan
 * the pick shows is one the reason describes ("Dedicated vCPU plans with local NVMe ..." must not show a
 * shared plan on SSD). The rule is small on purpose; docs/dataset.md states it for editors:
 * - CPU: "dedicated" or "shared" followed within four words by vCPU(s), CPU(s), core(s) or plan(s)
 *   ("Dedicated CPU plans", "dedicated cores", "Shared x86 and Ampere ARM plans") claims that CPU type.
 *   A reason that names both kinds offers both and claims neither.
 * - Disk: one disk technology named as plans write it (NVMe, SSD, HDD, MaxIOPS) claims a plan whose disk
 *   text names it. A reason that names two compares them and claims neither.
 */
export interface ReasonClaims {
  cpuType?: CpuType;
  /** A word the plan's disk text must contain, as plans write it: "NVMe", "SSD", "HDD" or "MaxIOPS". */
  disk?: DiskWord;
}

const DISK_WORDS = ['NVMe', 'SSD', 'HDD', 'MaxIOPS'] as const;
type DiskWord = (typeof DISK_WORDS)[number];

/** "dedicated"/"shared", then up to four words, then the thing it qualifies. Bounded, so linear. */
const CPU_CLAIM = /\b(dedicated|shared)\s+(?:[\w-]+\s+){0,4}?(?:v?cpus?|cores?|plans?)\b/gi;
const DISK_WORD = new RegExp(`\\b(${DISK_WORDS.join('|')})\\b`, 'gi');

/** The claims a reason makes about its plans; an empty object when it makes none. */
export function reasonClaims(reason: string): ReasonClaims {
  const cpu = new Set([...reason.matchAll(CPU_CLAIM)].map((m) => m[1].toLowerCase() as CpuType));
  const disks = new Set(
    [...reason.matchAll(DISK_WORD)].map((m) => DISK_WORDS.find((w) => w.toLowerCase() === m[1].toLowerCase())!),
  );
  return {
    ...(cpu.size === 1 ? { cpuType: [...cpu][0] } : {}),
    ...(disks.size === 1 ? { disk: [...disks][0] } : {}),
  };
}

/** True when a plan has what the claims say: its CPU type, and the disk technology in its disk text. */
export function meetsClaims(plan: { cpuType: string; storage: string }, claims: ReasonClaims): boolean {
  if (claims.cpuType && plan.cpuType !== claims.cpuType) return false;
  return !claims.disk || new RegExp(`\\b${claims.disk}\\b`, 'i').test(plan.storage);
}

/** The claims in words, for messages: "dedicated vCPUs and an NVMe disk". Empty when there are none. */
export function claimsText(claims: ReasonClaims): string {
  const parts = [
    ...(claims.cpuType ? [`${claims.cpuType} vCPUs`] : []),
    ...(claims.disk ? [`${claims.disk === 'MaxIOPS' ? 'a' : 'an'} ${claims.disk} disk`] : []),
  ];
  return parts.join(' and ');
}

/** True when the reason claims anything. */
export const hasClaims = (claims: ReasonClaims) => claims.cpuType !== undefined || claims.disk !== undefined;
