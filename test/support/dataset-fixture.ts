import { resolve } from 'node:path';
import { readDatasetFiles, type RawDataset } from '../../src/dataset/dataset-files.js';
import { validateDataset } from '../../src/dataset/dataset-validator.js';
import { MIN_PLANS } from '../../src/dataset/dto/provider.dto.js';

/**
 * A small, valid dataset for the validator's specs. Validating the embedded dataset takes ~100 ms
 * (200 guides, 89 plans, 16 use cases sized against every plan); a spec that refuses one edit at a
 * time would spend minutes on it under mutation testing. This one keeps every rule reachable: all
 * eight providers (the count is a rule) with every plan line, three use cases (one with a
 * `recommendedSpecNote`), one guide of each type, one release.
 *
 * It is derived from the embedded files, so it follows the schema as it changes; the figures a rule
 * compares (use-case sizing) are written here, so data updates cannot change what the specs test.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** Use cases the small dataset keeps; tests name them. */
export const FIXTURE_USE_CASES = ['wordpress', 'web-app', 'seedbox'] as const;
/** Guides the small dataset keeps besides one of each other type; tests name them. */
export const FIXTURE_GUIDES = ['hetzner-review', 'install-docker'] as const;

/** A spec every provider's cheapest plan meets. */
const SMALL_SPEC = { vcpus: 1, ramGb: 0.5, storageGb: 10, bandwidthTb: 0.5 };
/** A spec no plan meets: the seedbox case explains how it is reached in its note. */
const UNSOLD_SPEC = { vcpus: 1, ramGb: 0.5, storageGb: 100_000, bandwidthTb: 0.5 };

/** The embedded dataset as the service reads it; fails the suite if it does not read cleanly. */
export async function readEmbeddedDataset(): Promise<RawDataset> {
  const { raw, problems } = await readDatasetFiles(resolve('data'));
  if (problems.length > 0) throw new Error(`data/ does not read: ${problems.join('; ')}`);
  return raw;
}

/** The small dataset derived from the embedded one (a fresh copy each call). */
export function smallDataset(embedded: RawDataset): RawDataset {
  const raw = structuredClone(embedded) as Json;
  for (const p of raw.providers.providers) {
    p.plans = fewestPlans(p);
    const kept = new Set(p.plans.map((plan: Json) => plan.name));
    const backups = p.addOns.backups;
    if (backups.pricesByPlan)
      backups.pricesByPlan = Object.fromEntries(
        Object.entries(backups.pricesByPlan).filter(([name]) => kept.has(name)),
      );
    p.bestFor = p.bestFor.filter((slug: string) => (FIXTURE_USE_CASES as readonly string[]).includes(slug));
  }
  raw.useCases.useCases = FIXTURE_USE_CASES.map((slug) => {
    const u = raw.useCases.useCases.find((c: Json) => c.slug === slug);
    if (!u) throw new Error(`data/use-cases.json has no "${slug}" for the validator fixture`);
    const note = slug === 'seedbox';
    return {
      ...u,
      minimumSpec: { ...SMALL_SPEC, notes: u.minimumSpec.notes },
      recommendedSpec: { ...(note ? UNSOLD_SPEC : SMALL_SPEC), notes: u.recommendedSpec.notes },
      recommendedSpecNote: note ? 'Attach a storage volume.' : undefined,
    };
  });
  const byType = new Map<string, Json>();
  for (const g of raw.guides)
    if (!byType.has(g.frontMatter.type) && !(FIXTURE_GUIDES as readonly string[]).includes(g.fileSlug))
      byType.set(g.frontMatter.type, g);
  raw.guides = [...FIXTURE_GUIDES.map((slug) => raw.guides.find((g: Json) => g.fileSlug === slug)), ...byType.values()];
  for (const release of raw.changelog.releases) {
    for (const [key, list] of Object.entries(release.changes))
      if (Array.isArray(list)) release.changes[key] = list.slice(0, 2);
  }
  return JSON.parse(JSON.stringify(raw)); // drops the undefined notes, as a file would not hold them
}

/** The cheapest plan of each line (so every line keeps a plan and the cheapest stays), then the cheapest others up to the minimum, in file order. */
function fewestPlans(p: Json): Json[] {
  const byPrice = [...p.plans].sort((a: Json, b: Json) => a.price - b.price);
  const keep = new Set<Json>(p.planLines.map((l: Json) => byPrice.find((plan) => plan.line === l.id)));
  for (const plan of byPrice) if (keep.size < MIN_PLANS) keep.add(plan);
  return p.plans.filter((plan: Json) => keep.has(plan));
}

/** Records of a raw dataset, found by id, slug or name (to edit or read them). */
export const provider = (raw: Json, id: string) => raw.providers.providers.find((p: Json) => p.id === id);
export const guide = (raw: Json, slug: string) => raw.guides.find((g: Json) => g.fileSlug === slug).frontMatter;
export const useCase = (raw: Json, slug: string) => raw.useCases.useCases.find((u: Json) => u.slug === slug);
export const line = (raw: Json, id: string, lineId: string) =>
  provider(raw, id).planLines.find((l: Json) => l.id === lineId);
export const plan = (raw: Json, id: string, name: string) => provider(raw, id).plans.find((p: Json) => p.name === name);

/** Edits a copy of `base` and validates it; names records the way the validator's messages do. */
export function datasetEditor(base: RawDataset) {
  const b = base as Json;
  return {
    /** A deep copy of the base dataset, changed by `edit`, validated (on `today`, UTC, when given): its problems. */
    problemsAfter: (edit: (raw: Json) => void, today?: string): string[] =>
      validateDataset(edited(base, edit), today).problems,
    /** The same, with the content when it is valid. */
    resultAfter: (edit: (raw: Json) => void) => validateDataset(edited(base, edit)),
    /** `data/providers.json: providers[i] (id)` for a provider of the base dataset. */
    at: (id: string) => `data/providers.json: providers[${b.providers.providers.indexOf(provider(b, id))}] (${id})`,
    /** `data/use-cases.json: useCases[i] (slug)` for a use case of the base dataset. */
    useCaseAt: (slug: string) =>
      `data/use-cases.json: useCases[${b.useCases.useCases.findIndex((u: Json) => u.slug === slug)}] (${slug})`,
    /** The index of a plan in its provider's list, in the base dataset. */
    planIndex: (id: string, name: string) => provider(b, id).plans.findIndex((p: Json) => p.name === name),
    version: b.meta.version as string,
  };
}

function edited(base: RawDataset, edit: (raw: Json) => void): RawDataset {
  const raw = structuredClone(base) as Json;
  edit(raw);
  return raw;
}
