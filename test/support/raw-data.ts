import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

/**
 * The embedded dataset read straight from the files, independently of the service's loader, so
 * e2e expectations do not come from the code under test.
 */
export const DATA_DIR = resolve('data');
const json = (name: string) => JSON.parse(readFileSync(join(DATA_DIR, name), 'utf8'));

export const rawMeta = json('meta.json');
export const rawProviders = json('providers.json');
export const rawUseCases = json('use-cases.json');
export const rawAuthors = json('authors.json');
export const rawGuides = readdirSync(join(DATA_DIR, 'guides'))
  .filter((f) => f.endsWith('.md'))
  .map((file) => {
    const text = readFileSync(join(DATA_DIR, 'guides', file), 'utf8');
    const [, front, body] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text)!;
    return { ...parse(front), body };
  });

/** The bill inputs as the files hold them: exchange rates, VAT rates, and one provider, plan or plan line by name. */
export const rawExchangeRates = json('exchange-rates.json');
export const rawVatRates = json('vat-rates.json').rates;
export const rawProvider = (id: string) => rawProviders.providers.find((p: { id: string }) => p.id === id);
export const rawPlan = (id: string, name: string) =>
  rawProvider(id).plans.find((p: { name: string }) => p.name === name);
export const rawLine = (id: string, name: string) =>
  rawProvider(id).planLines.find((l: { id: string }) => l.id === rawPlan(id, name).line);
