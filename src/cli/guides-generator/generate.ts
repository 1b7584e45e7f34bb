import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExchangeRatesRecord } from '../../dataset/dto/exchange-rates.dto.js';
import type { ProviderRecord } from '../../dataset/dto/provider.dto.js';
import type { UseCaseRecord } from '../../dataset/dto/use-case.dto.js';
import { ExchangeRates } from '../../dataset/exchange-rates.js';
import { alternativesGuide } from './alternatives.template.js';
import { bestOfGuide } from './best-of.template.js';
import { comparisonGuide } from './comparison.template.js';
import { readEditorial } from './editorial.js';
import { generatorContext } from './generator-context.js';
import { reviewGuide } from './review.template.js';

/**
 * Every generated guide of a dataset directory, as `file name → content`, deterministically: the same
 * inputs always give the same bytes, so a test can compare them with the committed files.
 */
export async function generateGuides(dataDir: string): Promise<Map<string, string>> {
  const json = async <T>(name: string) => JSON.parse(await readFile(join(dataDir, name), 'utf8')) as T;
  const [meta, providers, useCases, rates, editorial] = await Promise.all([
    json<{ version: string }>('meta.json'),
    json<{ providers: ProviderRecord[] }>('providers.json'),
    json<{ useCases: UseCaseRecord[] }>('use-cases.json'),
    json<ExchangeRatesRecord>('exchange-rates.json'),
    readEditorial(dataDir),
  ]);
  const ctx = generatorContext(
    providers.providers,
    useCases.useCases,
    new ExchangeRates(rates),
    editorial,
    meta.version,
  );
  const guides = [
    ...ctx.providers.map((p) => reviewGuide(ctx, p)),
    ...ctx.providers.map((p) => alternativesGuide(ctx, p)),
    ...editorial.comparisons.map((c) => comparisonGuide(ctx, c)),
    ...editorial.bestOf.map((b) => bestOfGuide(ctx, b)),
  ];
  const files = new Map<string, string>();
  for (const { slug, content } of guides) {
    if (files.has(`${slug}.md`)) throw new Error(`Two generated guides share the slug ${slug}`);
    files.set(`${slug}.md`, content);
  }
  return files;
}
