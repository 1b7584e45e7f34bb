/**
 * A deliberately separate reading of the embedded dataset's plan figures ("4GB", "512MB",
 * "80GB NVMe", "2 vCPU"), so MCP expectations are not computed by the code under test.
 */
export function figures(plan: { cpu: string; ram: string; storage: string }) {
  const size = (text: string) => {
    const [, n, unit] = /^([\d.]+)(MB|GB|TB)/.exec(text)!;
    return Number(n) * (unit === 'MB' ? 1 / 1024 : unit === 'TB' ? 1024 : 1);
  };
  return {
    vcpus: Number(plan.cpu.split(' ')[0]),
    ramGb: size(plan.ram),
    storageGb: size(plan.storage),
    storageType: /NVMe/.test(plan.storage) ? 'NVMe' : /SSD/.test(plan.storage) ? 'SSD' : 'HDD',
  };
}
