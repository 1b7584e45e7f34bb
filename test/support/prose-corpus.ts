import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_DIR, rawGuides, rawMeta, rawProviders, rawUseCases } from './raw-data';

/*
 * The editorial prose of the dataset, read straight from the files, for the tests that check prose
 * against the figures it quotes: the providers' and use cases' text fields, the editorial inputs of
 * the generated guides, the hand-written guides, and (for claims that reach readers only through the
 * generator) every guide as published.
 */

export interface Prose {
  where: string;
  text: string;
  /** The provider the text is about, when it is about one. */
  providerId?: string;
}

export const providers: any[] = rawProviders.providers;
const editorial = (name: string) => JSON.parse(readFileSync(join(DATA_DIR, 'editorial', name), 'utf8'));

/** Every string inside a JSON value, with its path. */
export function strings(value: unknown, path: string): Prose[] {
  if (typeof value === 'string') return [{ where: path, text: value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${path}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, `${path}.${k}`));
  return [];
}

export const providerProse: Prose[] = providers.flatMap((p) =>
  ['summary', 'verdict', 'pricingNotes', 'support']
    .map((k) => ({ where: `providers.json ${p.id}.${k}`, text: p[k], providerId: p.id }))
    .concat(
      [...p.pros, ...p.cons].map((text: string, i: number) => ({
        where: `providers.json ${p.id} pro/con ${i}`,
        text,
        providerId: p.id,
      })),
    ),
);
export const reasons: Prose[] = rawUseCases.useCases.flatMap((u: any) =>
  u.recommendedProviders.map((r: any) => ({
    where: `use-cases.json ${u.slug} → ${r.id}`,
    text: r.reason,
    providerId: r.id,
  })),
);
export const useCaseProse: Prose[] = rawUseCases.useCases.flatMap((u: any) =>
  strings(
    { description: u.description, notes: [u.minimumSpec.notes, u.recommendedSpec.notes] },
    `use-cases.json ${u.slug}`,
  ),
);
export const editorialProse: Prose[] = [
  'reviews.json',
  'comparisons.json',
  'best-of.json',
  'alternatives.json',
].flatMap((f) => strings(editorial(f), `editorial/${f}`));
export const GENERATED_TYPES = ['review', 'comparison', 'best-of', 'alternatives'];
export const guideProse: Prose[] = rawGuides
  .filter((g) => !GENERATED_TYPES.includes(g.type))
  .map((g) => ({ where: `guides/${g.slug}.md`, text: g.body }));
/** The dataset's own description (meta.json), served in the API index, the provider list and llms.txt. */
export const metaProse: Prose[] = [{ where: 'meta.json description', text: rawMeta.description }];
export const allProse = [...metaProse, ...providerProse, ...reasons, ...useCaseProse, ...editorialProse, ...guideProse];

/** Every guide as published (generated ones included), with the provider a review is about. */
export const publishedGuideProse: Prose[] = rawGuides.map((g) => ({
  where: `guides/${g.slug}.md`,
  text: g.body,
  providerId: g.type === 'review' ? g.slug.replace(/-review$/, '') : undefined,
}));
