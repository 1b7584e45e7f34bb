import { stringify } from 'csv-stringify/sync';
import type { PlanTableRow } from './dto/plan-table-row.dto.js';

/** The CSV columns, in order: the fields of a plans.json row, so the two read the same. Columns added later go at the end, so a reader that indexes columns by position keeps working. */
export const PLAN_CSV_COLUMNS = [
  'providerId',
  'providerName',
  'planName',
  'cpu',
  'ram',
  'storage',
  'bandwidth',
  'vcpus',
  'ramGb',
  'storageGb',
  'storageType',
  'bandwidthTb',
  'unmetered',
  'cpuType',
  'price',
  'currency',
  'priceBasis',
  'termMonths',
  'promotional',
  'renewalPrice',
  'monthToMonthPrice',
  'priceUsd',
  'priceEur',
  'monthToMonthPriceUsd',
  'monthToMonthPriceEur',
  'exchangeRatesDate',
  'lineId',
  'lineComplete',
  'reviewUrl',
  'priceHistory',
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
] as const satisfies readonly (keyof PlanTableRow)[];

/**
 * The plan rows as RFC 4180 CSV: a header row, CRLF line ends, fields quoted only when they hold a
 * comma, a quote or a line break. null is an empty field, booleans are `true`/`false`, numbers are
 * written as JSON writes them, so a spreadsheet and a JSON reader see the same values. The price
 * history is one field, `<version> <price>` pairs joined by `; `. A text field that a spreadsheet would
 * run as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`
 * (OWASP's rule for CSV injection): plan names come from the providers' catalogues.
 */
export function planTableCsv(rows: readonly PlanTableRow[]): string {
  const records = rows.map((row) => ({ ...row, priceHistory: priceHistoryField(row.priceHistory) }));
  return stringify(records, {
    header: true,
    columns: [...PLAN_CSV_COLUMNS],
    record_delimiter: 'windows',
    cast: { boolean: (value) => (value ? 'true' : 'false'), string: inertField },
  });
}

/** A text field as a spreadsheet reads it: data, never a formula. */
export const inertField = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** A price history as one CSV field: `2026-11-26 3.49; 2027-01-15 3.99`. */
export const priceHistoryField = (history: PlanTableRow['priceHistory']) =>
  history.map((p) => `${p.version} ${p.price}`).join('; ');
