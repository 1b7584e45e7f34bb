/**
 * After a refresh, the editorial text that quotes a figure the refresh changed: a plan named with its
 * old price, or a plan that is no longer sold. The refresher never edits prose; it names each place so
 * an editor can fix it in the same release. It reads the same prose the prose-figures test reads:
 * the providers' and use cases' text fields, the editorial inputs of the generated guides, and the
 * hand-written guides.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProviderDiff } from './refresh-diff.js';

export interface Contradiction {
  where: string;
  says: string;
  but: string;
}

interface Prose {
  where: string;
  text: string;
}

const SYMBOLS: Record<string, string> = { EUR: '€', USD: '$', GBP: '£' };
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every place in the prose of `dataDir` that quotes a plan at a price the diffs changed, or names a removed plan. */
export async function contradictedProse(dataDir: string, diffs: readonly ProviderDiff[]): Promise<Contradiction[]> {
  const prose = await readProse(dataDir);
  const found: Contradiction[] = [];
  for (const d of diffs) {
    for (const r of d.repriced) {
      const amount = new RegExp(
        `${escape(r.name)}\\b[^.\\n]{0,60}?(?:${escape(SYMBOLS[r.currency] ?? '')}\\s?${escape(String(r.oldPrice))}\\b|\\b${escape(String(r.oldPrice))}\\s?${r.currency}\\b)`,
      );
      for (const p of prose) {
        const m = amount.exec(p.text);
        if (m)
          found.push({
            where: p.where,
            says: m[0],
            but: `${d.providerId} ${r.name} now costs ${r.newPrice} ${r.currency}`,
          });
      }
    }
    for (const r of d.removed) {
      const named = new RegExp(`(?<![\\w-])${escape(r.name)}(?![\\w-]| \\d| GB)`);
      for (const p of prose) {
        const m = named.exec(p.text);
        if (m)
          found.push({
            where: p.where,
            says: p.text.slice(Math.max(0, m.index - 30), m.index + r.name.length + 30).replace(/\s+/g, ' '),
            but: `${d.providerId} ${r.name} is ${r.why}`,
          });
      }
    }
  }
  return found;
}

async function readProse(dataDir: string): Promise<Prose[]> {
  const json = async (name: string) => JSON.parse(await readFile(join(dataDir, name), 'utf8')) as unknown;
  const prose: Prose[] = [];
  const providers = (await json('providers.json')) as { providers: Record<string, unknown>[] };
  for (const p of providers.providers) {
    for (const key of ['summary', 'verdict', 'pricingNotes', 'support', 'pros', 'cons'])
      prose.push(...strings(p[key], `providers.json ${String(p.id)}.${key}`));
  }
  const useCases = (await json('use-cases.json')) as { useCases: Record<string, unknown>[] };
  for (const u of useCases.useCases)
    prose.push(
      ...strings(
        {
          description: u.description,
          minimumSpec: u.minimumSpec,
          recommendedSpec: u.recommendedSpec,
          recommendedProviders: u.recommendedProviders,
          note: u.recommendedSpecNote,
        },
        `use-cases.json ${String(u.slug)}`,
      ),
    );
  for (const name of await readdir(join(dataDir, 'editorial')).catch(() => [] as string[])) {
    if (name.endsWith('.json')) prose.push(...strings(await json(join('editorial', name)), `editorial/${name}`));
  }
  const guides = await readdir(join(dataDir, 'guides')).catch(() => [] as string[]);
  for (const name of guides.filter((n) => n.endsWith('.md'))) {
    const text = await readFile(join(dataDir, 'guides', name), 'utf8');
    // Generated guides are rewritten from the data and the editorial inputs; only hand-written ones are prose to fix.
    if (/^type: (review|comparison|best-of|alternatives)$/m.test(text.split('\n---')[0])) continue;
    prose.push({ where: `guides/${name}`, text });
  }
  return prose;
}

function strings(value: unknown, path: string): Prose[] {
  if (typeof value === 'string') return [{ where: path, text: value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, `${path}.${k}`));
  return [];
}
