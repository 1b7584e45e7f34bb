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
