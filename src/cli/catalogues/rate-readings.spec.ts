import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogueFormatError } from './catalogue.js';
import { applyRateReadings, PARTIAL_READINGS_FILE, readPartialReadings } from './rate-readings.js';

const table = {
  date: '2026-02-05',
  base: 'EUR',
  source: 'ECB',
  sourceUrl: 'https://ecb.example/rates',
  rates: { EUR: 1, USD: 1.18, AUD: 1.69 },
};
const copy = { url: 'https://copy.example/plans.json', copyOf: 'https://rates.example/latest' };

describe(applyRateReadings.name, () => {
  it('dates every currency with a whole day newer than the table, and forgets the copies it replaces', () => {
    const { next, moves } = applyRateReadings(
      { ...table, rateDates: { USD: '2026-09-28', AUD: '2026-02-05' }, rateSources: { USD: copy } },
      [{ date: '2026-10-01', rates: { EUR: 1, USD: 1.12, AUD: 1.7, GBP: 0.85 }, whole: true }],
    );
    expect(next).toEqual({
      ...table,
      date: '2026-10-01',
      rates: { EUR: 1, USD: 1.12, AUD: 1.7 },
      rateDates: { AUD: '2026-10-01', USD: '2026-10-01' },
    });
    expect(moves.map((m) => m.code)).toEqual(['AUD', 'USD']);
  });

  it('moves only the currencies a partial reading carries, and keeps the table dated by the oldest rate', () => {
    const { next, moves } = applyRateReadings(table, [
      { date: '2026-09-28', rates: { USD: 1.1378 }, whole: false, source: copy },
    ]);
    expect(next.rates).toEqual({ EUR: 1, USD: 1.1378, AUD: 1.69 });
    expect(next.rateDates).toEqual({ AUD: '2026-02-05', USD: '2026-09-28' });
    expect(next.rateSources).toEqual({ USD: copy });
    expect(next.date).toBe('2026-02-05');
    expect(moves).toEqual([
      { code: 'USD', from: { rate: 1.18, date: '2026-02-05' }, to: { rate: 1.1378, date: '2026-09-28' }, whole: false },
    ]);
  });

  it('never moves a rate back to an older day, nor lets a copy replace a rate of its own day', () => {
    const dated = { ...table, rateDates: { USD: '2026-09-28', AUD: '2026-02-05' } };
    expect(
      applyRateReadings(dated, [{ date: '2025-05-09', rates: { USD: 1.12, AUD: 1.7 }, whole: true }]).moves,
    ).toEqual([]);
    expect(
      applyRateReadings(dated, [{ date: '2026-09-28', rates: { USD: 1.2 }, whole: false, source: copy }]).moves,
    ).toEqual([]);
    // The newest reading wins; of one day, the ECB's own document before a copy.
    const { next } = applyRateReadings(table, [
      { date: '2026-09-28', rates: { USD: 1.1378 }, whole: false, source: copy },
      { date: '2026-09-28', rates: { USD: 1.1379, AUD: 1.7 }, whole: true },
      { date: '2026-09-25', rates: { USD: 1.14 }, whole: false, source: copy },
    ]);
    expect(next.rates.USD).toBe(1.1379);
    expect(next.rateSources).toBeUndefined();
  });
});

describe(readPartialReadings.name, () => {
  let dir: string;
  const entry = {
    file: 'copy.json',
    datePointer: '/fx/date',
    ratePointers: { USD: '/fx/EUR_USD' },
    source: copy,
  };
  const write = async (readings: unknown[], document: unknown) => {
    await writeFile(join(dir, PARTIAL_READINGS_FILE), JSON.stringify({ readings }));
    await writeFile(join(dir, 'copy.json'), JSON.stringify(document));
  };
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'partial-readings-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the day and the rates from the recorded copy, through the pointers', async () => {
    await write([entry], { fx: { EUR_USD: 1.1378, date: '2026-09-28' } });
    expect(await readPartialReadings(dir)).toEqual([
      { date: '2026-09-28', rates: { USD: 1.1378 }, whole: false, source: copy },
    ]);
  });

  it('has nothing to read where no partial reading is recorded', async () => {
    expect(await readPartialReadings(join(dir, 'nowhere'))).toEqual([]);
  });

  it('refuses a pointer that names no date or no positive rate, and a copy without its provenance', async () => {
    await write([entry], { fx: { EUR_USD: 1.1378, date: 'yesterday' } });
    await expect(readPartialReadings(dir)).rejects.toThrow('/fx/date in copy.json is not a date');
    await write([entry], { fx: { EUR_USD: '1.1378', date: '2026-09-28' } });
    await expect(readPartialReadings(dir)).rejects.toThrow('/fx/EUR_USD in copy.json is not a positive rate for USD');
    await write([{ ...entry, ratePointers: { USD: '/fx/missing' } }], { fx: { EUR_USD: 1.1, date: '2026-09-28' } });
    await expect(readPartialReadings(dir)).rejects.toThrow(CatalogueFormatError);
    await write([{ ...entry, source: { url: copy.url } }], { fx: { EUR_USD: 1.1, date: '2026-09-28' } });
    await expect(readPartialReadings(dir)).rejects.toThrow('source needs');
  });
});
