import type { ProviderRecord } from './dto/provider.dto.js';
import { TAX_CUSTOMERS } from './dto/tax.dto.js';
import type { VatRatesRecord } from './dto/vat-rates.dto.js';

/** The countries `vat-rates.json` must cover: the 27 EU member states and the United Kingdom (GB). */
export const EU_COUNTRIES = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
] as const;
export const UK_COUNTRY = 'GB';
export const VAT_COUNTRIES: readonly string[] = [...EU_COUNTRIES, UK_COUNTRY];

/**
 * A plan line's locations are cities of the provider: where it is sold, and where its prices differ
 * (which must be places it is sold, when that is known).
 */
export function checkLineLocations(p: ProviderRecord, at: string): string[] {
  const problems: string[] = [];
  const cities = new Set(p.datacenters.map((d) => d.city));
  const named = `; cities of ${p.id}: ${[...cities].join(', ')}`;
  p.planLines.forEach((line, i) => {
    const where = `${at}.planLines[${i}] (${line.id})`;
    line.datacenters?.forEach((city, j) => {
      if (!cities.has(city))
        problems.push(`${where}.datacenters[${j}]: names no data centre of the provider ("${city}")${named}`);
    });
    line.regionalPrices?.forEach((regional, j) => {
      regional.datacenters.forEach((city, k) => {
        const path = `${where}.regionalPrices[${j}].datacenters[${k}]`;
        if (!cities.has(city)) problems.push(`${path}: names no data centre of the provider ("${city}")${named}`);
        else if (line.datacenters && !line.datacenters.includes(city))
          problems.push(`${path}: the line is not sold in ${city} (see its datacenters)`);
      });
    });
  });
  return problems;
}

/**
 * Add-ons never hide an unknown: a null figure or an `unknown` status needs `unknownReason`, a known
 * status needs a source, a charged traffic price needs its unit, and per-plan prices and lines name
 * real plans and lines.
 */
export function checkAddOns(p: ProviderRecord, at: string): string[] {
  const problems: string[] = [];
  const { ipv4, backups, snapshots, trafficOverage } = p.addOns;
  const where = `${at}.addOns`;
  const needReason = (name: string, item: { unknownReason?: string }, unknown: boolean, what: string) => {
    if (unknown && !item.unknownReason) problems.push(`${where}.${name}.unknownReason: required when ${what}`);
  };
  for (const [name, item] of Object.entries(p.addOns) as [
    string,
    { status: string; source?: unknown; unknownReason?: string },
  ][]) {
    needReason(name, item, item.status === 'unknown', 'the status is unknown');
    if (item.status !== 'unknown' && !item.source)
      problems.push(`${where}.${name}.source: a known status needs the page it was read on`);
  }
  needReason('ipv4', ipv4, ipv4.status === 'paid' && ipv4.pricePerMonth === null, 'a paid address has no price');
  const backupPriced =
    backups.percentOfPlanPrice !== null || backups.pricePerMonth !== null || backups.pricesByPlan !== undefined;
  needReason('backups', backups, backups.status === 'paid' && !backupPriced, 'paid backups have no price');
  needReason(
    'snapshots',
    snapshots,
    snapshots.status === 'paid' && snapshots.pricePerGbMonth === null,
    'paid snapshots have no price per GB',
  );
  needReason(
    'trafficOverage',
    trafficOverage,
    trafficOverage.status === 'charged' && trafficOverage.price === null,
    'charged traffic has no price',
  );
  if ((trafficOverage.price === null) !== (trafficOverage.unit === undefined))
    problems.push(`${where}.trafficOverage.unit: a price needs its unit, and only a price has one`);
  if (trafficOverage.status !== 'charged' && trafficOverage.price !== null)
    problems.push(`${where}.trafficOverage.price: only charged traffic has a price`);
  backups.otherFrequencies?.forEach((option, i) => {
    const path = `${where}.backups.otherFrequencies[${i}]`;
    if (backups.frequency === undefined)
      problems.push(`${path}: another frequency needs the add-on's own (backups.frequency)`);
    if (option.frequency === backups.frequency)
      problems.push(`${path}.frequency: ${option.frequency} is the add-on's own frequency`);
    const priced = option.percentOfPlanPrice !== null || option.pricePerMonth !== null;
    if ((option.status === 'unknown' || (option.status === 'paid' && !priced)) && !option.unknownReason)
      problems.push(`${path}.unknownReason: required when the price is unknown`);
  });
  const plans = new Set(p.plans.map((plan) => plan.name));
  for (const [name, price] of Object.entries(backups.pricesByPlan ?? {})) {
    if (!plans.has(name)) problems.push(`${where}.backups.pricesByPlan.${name}: names no plan of ${p.id}`);
    if (typeof price !== 'number' || !(price >= 0))
      problems.push(`${where}.backups.pricesByPlan.${name}: must be a number not below 0`);
  }
  const lines = new Set(p.planLines.map((l) => l.id));
  backups.includedInLines?.forEach((id, i) => {
    if (!lines.has(id))
      problems.push(`${where}.backups.includedInLines[${i}]: names no plan line of ${p.id} ("${id}")`);
  });
  for (const key of TAX_CUSTOMERS) {
    const taxCase = p.tax[key];
    if (taxCase.treatment === 'unknown' && !taxCase.unknownReason)
      problems.push(`${at}.tax.${key}.unknownReason: required when the treatment is unknown`);
  }
  return problems;
}

/** Every source the add-ons, tax and line data cite, for the date rules every source follows. */
export function addOnSources(
  p: ProviderRecord,
): { path: string; source: { retrievedAt: string; pageDate?: string } }[] {
  const found: { path: string; source: { retrievedAt: string; pageDate?: string } }[] = [];
  for (const [name, item] of Object.entries(p.addOns) as [
    string,
    { source?: { retrievedAt: string; pageDate?: string } },
  ][]) {
    if (item.source) found.push({ path: `addOns.${name}.source`, source: item.source });
  }
  p.tax.sources.forEach((source, i) => found.push({ path: `tax.sources[${i}]`, source }));
  return found;
}

/** `vat-rates.json` covers exactly the EU member states and GB, with sources not read after the dataset version. */
export function checkVatRates(table: VatRatesRecord, version: string | undefined, file: string): string[] {
  const problems: string[] = [];
  for (const code of VAT_COUNTRIES) {
    if (!Object.hasOwn(table.rates, code))
      problems.push(`${file}: rates.${code}: missing; the file must cover the 27 EU member states and GB`);
  }
  for (const [code, rate] of Object.entries(table.rates)) {
    if (!VAT_COUNTRIES.includes(code))
      problems.push(`${file}: rates.${code}: not an EU member state or GB (${VAT_COUNTRIES.join(', ')})`);
    else if (version && rate.source.retrievedAt > version)
      problems.push(`${file}: rates.${code}.source.retrievedAt: must not be after the dataset version (${version})`);
  }
  return problems;
}
