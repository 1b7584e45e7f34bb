/**
 * Sizes and speeds in the dataset are text as providers publish them ("512MB", "1.5GB",
 * "80GB NVMe", "25GB MaxIOPS SSD", "20TB", "Unmetered (1 Gbit/s)"). They are parsed here, once per
 * dataset version; a figure that cannot be read is null, and a filter on it leaves the plan out.
 * Every pattern is anchored and free of nested quantifiers, so it runs in linear time.
 */

/** Numbers derived from a plan's text fields. */
export interface PlanFigures {
  vcpus: number | null;
  ramGb: number | null;
  storageGb: number | null;
  /** `NVMe`, `SSD` or `HDD`, as written. */
  storageType: string | null;
  /** Included monthly traffic in TB; null when unmetered or not stated as a volume. */
  bandwidthTb: number | null;
  /** True when the provider does not meter traffic. */
  unmetered: boolean;
}

const NUMBER = String.raw`(\d{1,7}(?:[.,]\d{1,4})?)`;
const SIZE = new RegExp(String.raw`^\s*${NUMBER}\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)\b`, 'i');
const CPU = new RegExp(String.raw`^\s*${NUMBER}\s*(?:x\s*)?(?:v?cpus?|vcores?|cores?|threads?)\b`, 'i');
const STORAGE_TYPE = /\b(NVMe|SSD|HDD)\b/i;
const UNMETERED = /\b(unmetered|unlimited)\b/i;

const GB_PER_UNIT: Record<string, number> = { kb: 1 / 1024 ** 2, mb: 1 / 1024, gb: 1, tb: 1024 };

const toNumber = (text: string) => Number(text.replace(',', '.'));
const round = (n: number, digits = 4) => Math.round(n * 10 ** digits) / 10 ** digits;

/** "2 vCPU", "4 vCores", "8 cores" → 2, 4, 8. */
export function parseVcpus(text: string): number | null {
  const m = CPU.exec(text);
  const n = m ? toNumber(m[1]) : NaN;
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** "512MB" → 0.5, "1.5GB" → 1.5, "2TB" → 2048 (GB; binary units, as providers use them). */
export function parseSizeGb(text: string): number | null {
  const m = SIZE.exec(text);
  if (!m) return null;
  const unit = m[2].toLowerCase().replace('i', '');
  const n = toNumber(m[1]) * GB_PER_UNIT[unit];
  return Number.isFinite(n) && n > 0 ? round(n) : null;
}

/** "80GB NVMe" → { gb: 80, type: 'NVMe' }. */
export function parseStorage(text: string): { gb: number | null; type: string | null } {
  const type = STORAGE_TYPE.exec(text)?.[1] ?? null;
  const normalized = type ? ({ nvme: 'NVMe', ssd: 'SSD', hdd: 'HDD' }[type.toLowerCase()] ?? null) : null;
  return { gb: parseSizeGb(text), type: normalized };
}

/** "20TB" → 20, "500GB" → 0.5 (traffic is counted in decimal units), "Unmetered" → null. */
export function parseBandwidth(text: string): { tb: number | null; unmetered: boolean } {
  if (UNMETERED.test(text)) return { tb: null, unmetered: true };
  const m = SIZE.exec(text);
  if (!m) return { tb: null, unmetered: false };
  const unit = m[2].toLowerCase().replace('i', '');
  const tb = toNumber(m[1]) * ({ kb: 1e-9, mb: 1e-6, gb: 1e-3, tb: 1 } as Record<string, number>)[unit];
  return { tb: Number.isFinite(tb) && tb > 0 ? round(tb) : null, unmetered: false };
}

/** Every figure of a plan. */
export function planFigures(plan: { cpu: string; ram: string; storage: string; bandwidth: string }): PlanFigures {
  const storage = parseStorage(plan.storage);
  const bandwidth = parseBandwidth(plan.bandwidth);
  return {
    vcpus: parseVcpus(plan.cpu),
    ramGb: parseSizeGb(plan.ram),
    storageGb: storage.gb,
    storageType: storage.type,
    bandwidthTb: bandwidth.tb,
    unmetered: bandwidth.unmetered,
  };
}

/** Figures of a sizing recommendation, as written in `use-cases.json`. */
export interface SpecFigures {
  vcpus: number;
  ramGb: number;
  storageGb: number;
  bandwidthTb: number;
}

/**
 * The contract's text fields of a Spec, written the way plans write them, so that each reads back
 * through the parsers above to the same figure: 2 → "2 vCPU", 0.5 → "512MB", 80 → "80GB",
 * 2 (TB) → "2TB", 0.5 (TB) → "500GB".
 */
export function specText(spec: SpecFigures): { cpu: string; ram: string; storage: string; bandwidth: string } {
  return {
    cpu: `${spec.vcpus} vCPU`,
    ram: spec.ramGb < 1 ? `${round(spec.ramGb * 1024)}MB` : `${spec.ramGb}GB`,
    storage: `${spec.storageGb}GB`,
    bandwidth: spec.bandwidthTb < 1 ? `${round(spec.bandwidthTb * 1000)}GB` : `${spec.bandwidthTb}TB`,
  };
}

/** Minimum resources a plan must offer; an unset bound is no constraint, an unreadable figure fails a set one. */
export interface SpecBounds {
  minVcpus?: number;
  minRamGb?: number;
  minStorageGb?: number;
  /** Monthly transfer in TB, matched by the rule of `transferFit`. */
  minTransferTb?: number;
}

/**
 * How a plan's traffic allowance meets a need of `minTb` TB a month. One rule for every plan:
 * - `meets`: the plan includes at least that volume ("20TB"), or the provider does not meter its
 *   traffic ("Unmetered", "Unlimited", with a port speed or under a fair-use policy: no volume is
 *   counted, so none runs out);
 * - `short`: the plan includes a stated volume below the need ("1TB" for 3 TB);
 * - `unknown`: the allowance is not stated as a volume and not as unmetered (a "Fair-use
 *   allowance" the provider does not size, or text that cannot be read). An unknown allowance does
 *   not meet a stated need: answers count such plans and say why they were left out.
 */
export type TransferFit = 'meets' | 'short' | 'unknown';

export function transferFit(row: Pick<PlanFigures, 'bandwidthTb' | 'unmetered'>, minTb: number): TransferFit {
  if (row.unmetered) return 'meets';
  if (row.bandwidthTb === null) return 'unknown';
  return row.bandwidthTb >= minTb ? 'meets' : 'short';
}

/** True when the plan's figures reach every bound: vCPUs, RAM, disk and transfer. */
export function meetsSpec(row: PlanFigures, bounds: SpecBounds): boolean {
  const atLeast = (value: number | null, min?: number) => min === undefined || (value !== null && value >= min);
  return (
    atLeast(row.vcpus, bounds.minVcpus) &&
    atLeast(row.ramGb, bounds.minRamGb) &&
    atLeast(row.storageGb, bounds.minStorageGb) &&
    (bounds.minTransferTb === undefined || transferFit(row, bounds.minTransferTb) === 'meets')
  );
}

/** The bounds of a sizing recommendation without transfer: to tell a plan that misses a spec only on an unknown allowance. */
export const sizeBounds = (spec: SpecFigures): SpecBounds => ({
  minVcpus: spec.vcpus,
  minRamGb: spec.ramGb,
  minStorageGb: spec.storageGb,
});

/** The bounds a sizing recommendation sets: all four of its parts. */
export const specBounds = (spec: SpecFigures): SpecBounds => ({ ...sizeBounds(spec), minTransferTb: spec.bandwidthTb });
