/**
 * The European Central Bank's euro reference rates: one XML document a working day, listing how
 * many units of each currency one euro buys. The dataset converts plan prices with them
 * (`data/exchange-rates.json`), so a reading must carry the dollar and the pound at least.
 */
import { XMLParser } from 'fast-xml-parser';
import { CatalogueFormatError } from './catalogue.js';
import type { CatalogueClient } from './catalogue-client.js';

/** Where the daily document lives; point a CatalogueClient at this host. */
export const ECB_BASE_URL = 'https://www.ecb.europa.eu';
export const ECB_DAILY_PATH = '/stats/eurofxref/eurofxref-daily.xml';
/** Currencies the dataset cannot do without (USD and GBP for display, and every currency a plan is billed in besides EUR). */
export const REQUIRED_CURRENCIES = ['USD', 'GBP'] as const;

interface RateCube {
  currency?: unknown;
  rate?: unknown;
}

/** Reads the day's reference rates: the date they are for, and units per euro by ISO code (EUR itself is 1). */
export async function readEcbRates(
  client: CatalogueClient,
  required: readonly string[] = REQUIRED_CURRENCIES,
): Promise<{ date: string; rates: Record<string, number> }> {
  const xml = await client.getText(ECB_DAILY_PATH);
  const where = `ECB ${ECB_DAILY_PATH}`;
  // The ECB's document has no DTD; one in a copy could declare entities that write the rates.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml))
    throw new CatalogueFormatError(`${where}: the answer declares a DTD, which the reference-rate document never has`);
  let document: unknown;
  try {
    // Attributes keep their text: "0.84770" must not lose its trailing zero on the way to a check.
    document = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      parseAttributeValue: false,
      removeNSPrefix: true,
      processEntities: false,
    }).parse(xml);
  } catch (error) {
    throw new CatalogueFormatError(`${where}: the answer is not XML (${(error as Error).message})`);
  }
  const day = (document as { Envelope?: { Cube?: { Cube?: unknown } } })?.Envelope?.Cube?.Cube;
  if (!isObject(day) || Array.isArray(day))
    throw new CatalogueFormatError(`${where}: no single <Cube time="…"> day in the envelope`);
  const date = day.time;
  if (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date))
    throw new CatalogueFormatError(`${where}: the day's time ${JSON.stringify(date)} is not a date`);

  const cubes = ([] as RateCube[]).concat((day.Cube as RateCube[] | RateCube | undefined) ?? []);
  if (cubes.length === 0) throw new CatalogueFormatError(`${where}: the day ${date} lists no rates`);
  const rates: Record<string, number> = { EUR: 1 };
  for (const [index, cube] of cubes.entries()) {
    const currency = cube?.currency;
    if (typeof currency !== 'string' || !/^[A-Z]{3}$/.test(currency))
      throw new CatalogueFormatError(
        `${where}: rate ${index + 1} has currency ${JSON.stringify(currency)}, not an ISO code`,
      );
    // The ECB writes plain decimals with a point; anything else (a comma, a thousands separator) is a copy someone reformatted.
    const text = cube.rate;
    if (typeof text !== 'string' || !/^\d+(\.\d+)?$/.test(text) || Number(text) <= 0)
      throw new CatalogueFormatError(
        `${where}: ${currency} has rate ${JSON.stringify(text)}, not a positive decimal number`,
      );
    if (currency in rates) throw new CatalogueFormatError(`${where}: ${currency} is listed twice`);
    rates[currency] = Number(text);
  }
  const missing = required.filter((currency) => !(currency in rates));
  if (missing.length > 0)
    throw new CatalogueFormatError(`${where}: the day ${date} has no rate for ${missing.join(', ')}`);
  return { date, rates };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
