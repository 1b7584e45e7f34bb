/**
 * The gate's longer memory: for each catalogue-derived price and each exchange rate, the value it had
 * when its baseline was set and the day that was. The gate compares a run with the served dataset and
 * with this baseline, so a run at a time cannot walk a price further than one run may move it. A
 * baseline older than `BASELINE_DAYS` is replaced by the served value on the next release; an accepted
 * case sets it to the accepted value. The file sits beside the dataset (`gate-baseline.json`) and is
 * written with each release the refresher makes; the served app does not read it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { BASELINE_DAYS, type BaselinePoint } from './refresh-diff.js';

export const GATE_BASELINE_FILE = 'gate-baseline.json';

export interface GateBaseline {
  /** By gate case id: `provider:planKey`. */
  prices: Record<string, BaselinePoint>;
  /** By gate case id: `ecb:USD`. */
  rates: Record<string, BaselinePoint>;
}

/** The baseline beside a dataset: empty when there is none yet; a file that cannot be read stops the run. */
export async function readGateBaseline(dataDir: string): Promise<GateBaseline> {
  const path = join(dataDir, GATE_BASELINE_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { prices: {}, rates: {} };
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<GateBaseline>;
  const valid = (points: unknown) =>
    typeof points === 'object' &&
    points !== null &&
    Object.values(points).every(
      (p: BaselinePoint) =>
        typeof p?.value === 'number' &&
        p.value > 0 &&
        typeof p.since === 'string' &&
        /^\d{4}-\d{2}-\d{2}$/.test(p.since),
    );
  if (!valid(parsed.prices) || !valid(parsed.rates))
    throw new Error(`${path} is not a gate baseline (prices and rates of { value > 0, since: YYYY-MM-DD })`);
  return { prices: parsed.prices!, rates: parsed.rates! };
}

/** The point if it was set within `BASELINE_DAYS` of `date`, else undefined (too old to hold a run back). */
export function currentPoint(point: BaselinePoint | undefined, date: string): BaselinePoint | undefined {
  if (!point) return undefined;
  const days = (Date.parse(date) - Date.parse(point.since)) / 86_400_000;
  return days >= 0 && days <= BASELINE_DAYS ? point : undefined;
}

/**
 * A value's baseline after a release on `date`: the accepted value when the operator accepted its case,
 * the current baseline while it is current, else the value served before this release (or, for a new
 * plan or rate, its first value).
 */
export function rolledPoint(
  point: BaselinePoint | undefined,
  date: string,
  served: number | undefined,
  released: number,
  accepted: boolean,
): BaselinePoint {
  if (accepted) return { value: released, since: date };
  return currentPoint(point, date) ?? { value: served ?? released, since: date };
}
