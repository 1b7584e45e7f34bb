import { parse } from 'csv-parse/sync';
import type { PlanTableRow } from './dto/plan-table-row.dto';
import { PLAN_CSV_COLUMNS, planTableCsv } from './plan-csv';

const row = (overrides: Partial<PlanTableRow> = {}): PlanTableRow => ({
  providerId: 'acme',
  providerName: 'Acme',
  planName: 'S-1',
  cpu: '1 vCPU',
  ram: '512MB',
  storage: '10GB SSD',
  bandwidth: '1TB',
  vcpus: 1,
  ramGb: 0.5,
  storageGb: 10,
  storageType: 'SSD',
  bandwidthTb: 1,
  unmetered: false,
  cpuType: 'shared',
  price: 4,
  currency: 'USD',
  priceBasis: 'monthly',
  termMonths: null,
  promotional: false,
  renewalPrice: null,
  monthToMonthPrice: 4,
  priceUsd: 4,
  priceEur: 3.39,
  monthToMonthPriceUsd: 4,
  monthToMonthPriceEur: 3.39,
  exchangeRatesDate: '2026-02-05',
  lineId: 'basic',
  lineComplete: true,
  reviewUrl: 'https://vpsapi.test/providers/acme',
  priceHistory: [
    { version: '2026-11-26', price: 4.5 },
    { version: '2027-01-15', price: 4 },
  ],
  observedAt: '2026-10-01',
  priceAgeDays: 56,
  stale: false,
  staleReason: null,
  priceSourceMethod: 'copy',
  priceSourceUrl: 'https://mirror.example/acme',
  priceCopyOf: 'https://acme.example/pricing',
  discontinued: false,
  successor: null,
  orderable: 'unknown',
  orderableObservedAt: null,
  ...overrides,
});

describe('planTableCsv', () => {
  it('writes a header row and one CRLF-terminated record per row, nulls empty and booleans as words', () => {
    const text = planTableCsv([row()]);
    const lines = text.split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(PLAN_CSV_COLUMNS.join(','));
    expect(lines[1]).toBe(
      'acme,Acme,S-1,1 vCPU,512MB,10GB SSD,1TB,1,0.5,10,SSD,1,false,shared,4,USD,monthly,,false,,4,4,3.39,4,3.39,2026-02-05,basic,true,https://vpsapi.test/providers/acme,2026-11-26 4.5; 2027-01-15 4,2026-10-01,56,false,,copy,https://mirror.example/acme,https://acme.example/pricing,false,,unknown,',
    );
    expect(lines[2]).toBe('');
  });

  it('quotes exactly the fields that need it, doubling inner quotes', () => {
    const text = planTableCsv([row({ planName: 'Plan "Pro", large', bandwidth: 'Unmetered\r\n(fair use)' })]);
    expect(text).toContain(',"Plan ""Pro"", large",');
    expect(text).toContain(',"Unmetered\r\n(fair use)",');
    expect(text).toContain(',Acme,');
    const [back] = parse(text, { columns: true });
    expect(back.planName).toBe('Plan "Pro", large');
    expect(back.bandwidth).toBe('Unmetered\r\n(fair use)');
  });

  it('keeps the first columns in their published order and adds the price-age columns at the end', () => {
    expect(PLAN_CSV_COLUMNS.slice(0, 3)).toEqual(['providerId', 'providerName', 'planName']);
    expect(PLAN_CSV_COLUMNS.indexOf('priceHistory')).toBe(29);
    expect(PLAN_CSV_COLUMNS.slice(30)).toEqual([
      'observedAt',
      'priceAgeDays',
      'stale',
      'staleReason',
      'priceSourceMethod',
      'priceSourceUrl',
      'priceCopyOf',
      'discontinued',
      'successor',
      'orderable',
      'orderableObservedAt',
    ]);
  });

  it('writes a stale reason holding commas and quotes as one quoted field', () => {
    const text = planTableCsv([
      row({
        stale: true,
        staleReason: 'price seen 2026-01-01, 329 days before this release',
        discontinued: true,
        successor: 'Premium "plans"',
      }),
    ]);
    const [back] = parse(text, { columns: true });
    expect([back.stale, back.staleReason, back.discontinued, back.successor]).toEqual([
      'true',
      'price seen 2026-01-01, 329 days before this release',
      'true',
      'Premium "plans"',
    ]);
  });

  it('has a column for every field of a row', () => {
    expect([...PLAN_CSV_COLUMNS].sort()).toEqual(Object.keys(row()).sort());
  });

  it('writes a text field a spreadsheet would run as a formula with a leading quote, and leaves numbers alone', () => {
    const formulas = ['=HYPERLINK("https://evil.example","Claim")', '+1+1', '-2+3', '@SUM(A1)', '\tx', '\rx'];
    const records = parse(planTableCsv(formulas.map((planName) => row({ planName }))), { columns: true }) as Record<
      string,
      string
    >[];
    expect(records.map((r) => r.planName)).toEqual(formulas.map((f) => `'${f}`));
    // What does not start a formula is written as it is.
    expect(parse(planTableCsv([row({ planName: 'S-1 = 1 vCPU' })]), { columns: true })[0].planName).toBe(
      'S-1 = 1 vCPU',
    );
    expect(parse(planTableCsv([row()]), { columns: true })[0].price).toBe('4');
  });
});
