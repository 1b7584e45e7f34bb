/**
 * Readings of the euro reference rates and how they date the dataset's rate table. The ECB's daily
 * document is a whole reading: every currency of one day. A dated copy of a few of the ECB's rates (a
 * service that republishes them, recorded by a public repository) is a partial reading: it can only
 * move the currencies it carries, each to its own, newer day. Every other currency keeps its day.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExchangeRatesRecord, RateSource } from '../../dataset/dto/exchange-rates.dto.js';
import { isCalendarDate } from '../../dataset/dto/validators.js';
import { CatalogueFormatError } from './catalogue.js';

/** One reading of reference rates: units of each currency per euro, on one day. */
export interface RateReading {
  /** The day the rates are for (the ECB's reference day). */
  date: string;
  rates: Record<string, number>;
  /** True for the ECB's whole daily document; false for a copy that carries some of its rates. */
  whole: boolean;
  /** Where a partial reading was read: the copy, and the address it copies. */
  source?: RateSource;
}

/** A currency whose rate or day a reading moves. */
export interface RateMove {
  code: string;
  from: { rate: number; date: string };
  to: { rate: number; date: string };
  whole: boolean;
}

/**
 * The table after the readings: each currency takes the newest reading that carries it, when that
 * reading is newer than the currency's own day (or of the same day and whole, the ECB's own document
 * replacing a copy). A whole reading dates the currency with the table's source; a partial one records
 * its copy in `rateSources`. `date` becomes the oldest day of any rate.
 */
export function applyRateReadings(
  table: ExchangeRatesRecord,
  readings: readonly RateReading[],
): { next: ExchangeRatesRecord; moves: RateMove[] } {
  const rateDates: Record<string, string> = {};
  const rateSources: Record<string, RateSource> = { ...table.rateSources };
  const rates = { ...table.rates };
  const moves: RateMove[] = [];
  for (const code of Object.keys(table.rates).sort()) {
    if (code === table.base) continue;
    const day = table.rateDates?.[code] ?? table.date;
    const fromCopy = code in rateSources;
    const best = readings
      .filter((r) => r.rates[code] !== undefined)
      .filter((r) => r.date > day || (r.date === day && r.whole && (fromCopy || r.rates[code] !== rates[code])))
      .sort((a, b) => b.date.localeCompare(a.date) || Number(b.whole) - Number(a.whole))[0];
    rateDates[code] = day;
    if (!best) continue;
    moves.push({
      code,
      from: { rate: rates[code], date: day },
      to: { rate: best.rates[code], date: best.date },
      whole: best.whole,
    });
    rates[code] = best.rates[code];
    rateDates[code] = best.date;
    if (best.whole) delete rateSources[code];
    else rateSources[code] = best.source!;
  }
  const { rateSources: _old, ...rest } = table;
  const oldest = Object.values(rateDates).sort()[0] ?? table.date;
  const next: ExchangeRatesRecord = {
    ...rest,
    date: oldest,
    rates,
    rateDates,
    ...(Object.keys(rateSources).length > 0 ? { rateSources } : {}),
  };
  return { next, moves };
}

/** The file, in a recording's `ecb` folder, that lists the partial readings recorded there. */
export const PARTIAL_READINGS_FILE = 'partial-readings.json';

/**
 * A rate quoted inside a recorded copy of someone else's document: the file, JSON pointers (RFC 6901)
 * to the day and to each rate in it, and the copy's provenance. The figures are read from the file as
 * recorded, never typed here.
 */
interface PartialReadingEntry {
  file: string;
  datePointer: string;
  ratePointers: Record<string, string>;
  source: RateSource;
}

/** Reads the partial readings recorded in `<dir>/ecb/`; none when the folder has no such file. */
export async function readPartialReadings(ecbDir: string): Promise<RateReading[]> {
  let text: string;
  try {
    text = await readFile(join(ecbDir, PARTIAL_READINGS_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const where = join(ecbDir, PARTIAL_READINGS_FILE);
  const entries = (JSON.parse(text) as { readings?: PartialReadingEntry[] }).readings;
  if (!Array.isArray(entries)) throw new CatalogueFormatError(`${where}: "readings" must be a list`);
  const readings: RateReading[] = [];
  for (const [i, entry] of entries.entries()) {
    const at = `${where}: readings[${i}]`;
    if (!/^https:\/\/\S+$/.test(entry.source?.url ?? '') || !/^https:\/\/\S+$/.test(entry.source?.copyOf ?? ''))
      throw new CatalogueFormatError(`${at}: source needs the copy's https url and the https address it copies`);
    const document: unknown = JSON.parse(await readFile(join(ecbDir, entry.file), 'utf8'));
    const date = atPointer(document, entry.datePointer);
    if (!isCalendarDate(date))
      throw new CatalogueFormatError(
        `${at}: ${entry.datePointer} in ${entry.file} is not a date: ${JSON.stringify(date)}`,
      );
    const rates: Record<string, number> = {};
    for (const [code, pointer] of Object.entries(entry.ratePointers ?? {})) {
      const rate = atPointer(document, pointer);
      if (!/^[A-Z]{3}$/.test(code) || typeof rate !== 'number' || !(rate > 0))
        throw new CatalogueFormatError(`${at}: ${pointer} in ${entry.file} is not a positive rate for ${code}`);
      rates[code] = rate;
    }
    if (Object.keys(rates).length === 0) throw new CatalogueFormatError(`${at}: ratePointers names no rate`);
    readings.push({ date, rates, whole: false, source: entry.source });
  }
  return readings;
}

/** The value a JSON pointer names in `document`; undefined when it names nothing. */
function atPointer(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  if (!pointer.startsWith('/')) return undefined;
  let node = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
