import { AuthorRecord } from './dto/author.dto.js';
import { DatasetRelease } from './dto/changelog.dto.js';
import { GuideFrontMatter } from './dto/guide.dto.js';
import { DatasetMeta } from './dto/meta.dto.js';
import { ProviderRecord } from './dto/provider.dto.js';
import { UseCaseRecord } from './dto/use-case.dto.js';
import { ExchangeRatesRecord } from './dto/exchange-rates.dto.js';
import { checkExchangeRates, ExchangeRates } from './exchange-rates.js';
import type { RawDataset, RawGuide } from './dataset-files.js';
import type { DatasetContent, GuideEntry } from './dataset-snapshot.js';
import { checkRecommendations } from './recommendation-rules.js';
import {
  BEST_BUDGET,
  checkBestBudgetNotWritten,
  checkPlanLines,
  checkRating,
  cheapestNoCommitmentProvider,
  quotedFiguresDate,
  subjectFigures,
} from './provider-rules.js';
import { addOnSources, checkAddOns, checkLineLocations, checkVatRates } from './add-on-rules.js';
import { VatRate, VatRatesRecord } from './dto/vat-rates.dto.js';
import { validateRecord } from './record-validation.js';
import { checkPriceProvenance } from './price-provenance-rules.js';
import { checkUseCaseSizing } from './use-case-rules.js';
import { countWords, readTimeMinutes } from './word-count.js';

/** The dataset always reviews exactly this many providers. */
export const PROVIDER_COUNT = 8;
/** A deprecated field lives at least this long before its sunset. */
export const MIN_SUNSET_DAYS = 180;
/** Currency prices are compared in unless a client asks for another. */
export const DEFAULT_CURRENCY = 'USD';
/** Schemas whose fields can be deprecated. */
export const DEPRECATABLE_SCHEMAS = ['Provider', 'Plan', 'UseCase', 'Guide'] as const;

const DAY_MS = 86_400_000;
const RECOMMENDATION_KEY = /^[a-z][A-Za-z0-9]*$/;

/**
 * Validates a parsed dataset: every record against its DTO class, then the rules that span records
 * (unique ids, references, prices, dates). Returns the content when there is no problem at all.
 * `today` (UTC, YYYY-MM-DD), given by the checks that read the data (`npm run data:validate`, the tests),
 * bounds the days a check can have run on (a tutorial's `reviewed`); the service, which loads the data
 * without it, never makes the data's validity depend on its own clock.
 */
export function validateDataset(raw: RawDataset, today?: string): { content?: DatasetContent; problems: string[] } {
  const problems: string[] = [];
  const { files } = raw;

  const meta =
    raw.meta === undefined ? undefined : validateRecord(DatasetMeta, raw.meta, files.meta, undefined, problems);
  if (meta) checkDeprecations(meta, files.meta, problems);
  if (meta) {
    const total = Object.values(meta.ratingWeights).reduce((a, b) => a + b, 0);
    if (Math.abs(total - 1) > 1e-9)
      problems.push(`${files.meta}: ratingWeights: must add up to 1 (they add up to ${total})`);
  }

  const authors = validateList(AuthorRecord, raw.authors, 'authors', files.authors, (a) => a.id, problems);
  const useCases = validateList(UseCaseRecord, raw.useCases, 'useCases', files.useCases, (u) => u.slug, problems);
  const providers = validateList(ProviderRecord, raw.providers, 'providers', files.providers, (p) => p.id, problems);
  const recommendations = readRecommendations(raw.providers, files.providers, problems);
  const rateTable =
    raw.exchangeRates === undefined
      ? undefined
      : validateRecord(ExchangeRatesRecord, raw.exchangeRates, files.exchangeRates, undefined, problems);
  // Rules that convert prices need a rate for every currency; they are skipped while one is missing.
  let rates: ExchangeRates | undefined;
  if (rateTable) {
    const billed = providers.valid.flatMap((p) => [p.currency, ...p.plans.map((plan) => plan.currency)]);
    // The plan table converts every price to USD and EUR.
    const rateProblems = checkExchangeRates(rateTable, [DEFAULT_CURRENCY, 'EUR', ...billed], files.exchangeRates);
    problems.push(...rateProblems);
    if (rateProblems.length === 0) rates = new ExchangeRates(rateTable);
  }

  const vatRates = validateVatRates(raw.vatRates, files.vatRates, meta?.version, problems);

  // References are checked against every id written, valid record or not, so one bad record is
  // reported once rather than again at every place that names it.
  const providerIds = providers.ids;
  const useCaseSlugs = useCases.ids;
  const authorIds = authors.ids;

  if (providers.count !== undefined && providers.count !== PROVIDER_COUNT) {
    problems.push(
      `${files.providers}: providers: must hold exactly ${PROVIDER_COUNT} providers (found ${providers.count})`,
    );
  }
  // Plans are priced through their lines; rules that compare prices run only when every line is sound.
  let pricesReadable = providers.count === providers.valid.length;
  for (const [i, p] of providers.indexed) {
    const at = `${files.providers}: providers[${i}] (${p.id})`;
    if (p.url !== `/providers/${p.id}`) problems.push(`${at}.url: must be /providers/${p.id}`);
    if (meta) problems.push(...checkPriceProvenance(p, at, meta.version));
    p.plans.forEach((plan, j) => {
      if (plan.currency !== p.currency) {
        problems.push(`${at}.plans[${j}].currency: must equal the provider's currency (${p.currency})`);
      }
    });
    const lineProblems = checkPlanLines(p, at);
    if (lineProblems.length > 0) pricesReadable = false;
    problems.push(...lineProblems);
    problems.push(...checkLineLocations(p, at), ...checkAddOns(p, at));
    if (meta) problems.push(...checkRating(p, meta.ratingWeights, at));
    p.bestFor.forEach((slug, j) => {
      if (useCases.count !== undefined && !useCaseSlugs.has(slug)) {
        problems.push(`${at}.bestFor[${j}]: names no use case ("${slug}")`);
      }
    });
    p.sources.forEach((source, j) => {
      if (meta && source.retrievedAt > meta.version) {
        problems.push(
          `${at}.sources[${j}].retrievedAt: must not be after the dataset version (${meta.version}): a page cannot be read after the release that cites it`,
        );
      }
      if (source.pageDate && source.pageDate > source.retrievedAt) {
        problems.push(`${at}.sources[${j}].pageDate: must not be after retrievedAt (${source.retrievedAt})`);
      }
    });
    for (const { path, source } of [
      ...addOnSources(p),
      ...p.planLines.map((l, j) => ({ path: `planLines[${j}].source`, source: l.source })),
    ]) {
      if (meta && source.retrievedAt > meta.version)
        problems.push(`${at}.${path}.retrievedAt: must not be after the dataset version (${meta.version})`);
      if (source.pageDate && source.pageDate > source.retrievedAt)
        problems.push(`${at}.${path}.pageDate: must not be after retrievedAt (${source.retrievedAt})`);
    }
  }
  problems.push(...checkBestBudgetNotWritten(recommendations, files.providers));
  if (pricesReadable && meta)
    problems.push(...checkRecommendations(recommendations, providers.valid, meta.version, files.providers));
  for (const [key, id] of Object.entries(recommendations)) {
    if (providers.count !== undefined && !providerIds.has(id)) {
      problems.push(`${files.providers}: recommendations.${key}: names no provider ("${id}")`);
    }
  }
  for (const [i, u] of useCases.indexed) {
    const at = `${files.useCases}: useCases[${i}] (${u.slug})`;
    if (u.url !== `/use-cases/${u.slug}`) problems.push(`${at}.url: must be /use-cases/${u.slug}`);
    u.recommendedProviders.forEach((rp, j) => {
      if (providers.count !== undefined && !providerIds.has(rp.id)) {
        problems.push(`${at}.recommendedProviders[${j}].id: names no provider ("${rp.id}")`);
      }
    });
    if (pricesReadable && meta) problems.push(...checkUseCaseSizing(u, providers.valid, at, meta.version));
  }

  // Each generated guide is dated no earlier than the figures of the providers it is about (only while every provider and the rates are usable).
  const byId = new Map(providers.valid.map((p) => [p.id, p]));
  const figuresDate =
    rates && providers.count === providers.valid.length
      ? (type: string, slug: string) => {
          const quoted = subjectFigures(type, slug, byId);
          const usdRatesDate = rates.dateUsedBy(providers.valid.map((p) => [p.currency, 'USD'] as const));
          return quoted && quotedFiguresDate(quoted, byId, usdRatesDate);
        }
      : undefined;
  const guides = raw.guides
    .map((g) =>
      validateGuide(g, meta, authors.count === undefined ? undefined : authorIds, figuresDate, today, problems),
    )
    .filter((g): g is GuideEntry => g !== undefined)
    .sort((a, b) => (a.published === b.published ? a.slug.localeCompare(b.slug) : a.published < b.published ? 1 : -1));

  const changelog = validateList(
    DatasetRelease,
    raw.changelog,
    'releases',
    files.changelog,
    (r) => r.version,
    problems,
  );
  changelog.indexed.forEach(([i, release], n) => {
    const previous = changelog.indexed[n - 1]?.[1];
    if (previous && release.version <= previous.version)
      problems.push(
        `${files.changelog}: releases[${i}].version: must be later than the release before it (${previous.version})`,
      );
    if (meta && release.version > meta.version)
      problems.push(
        `${files.changelog}: releases[${i}].version: must not be after the dataset version (${meta.version})`,
      );
  });

  if (problems.length > 0 || !meta || !rates || !vatRates) return { problems };
  const bestBudget = cheapestNoCommitmentProvider(providers.valid, rates, meta.version);
  return {
    content: {
      meta,
      recommendations: bestBudget === undefined ? recommendations : { ...recommendations, [BEST_BUDGET]: bestBudget },
      providers: providers.valid,
      useCases: useCases.valid,
      authors: authors.valid,
      guides,
      exchangeRates: rates,
      vatRates,
      changelog: changelog.valid,
    },
    problems,
  };
}

/** `vat-rates.json`: the record, each rate, then the countries it must cover. */
function validateVatRates(
  document: unknown,
  file: string,
  version: string | undefined,
  problems: string[],
): Record<string, VatRate> | undefined {
  if (document === undefined) return undefined;
  const table = validateRecord(VatRatesRecord, document, file, undefined, problems);
  if (!table) return undefined;
  const before = problems.length;
  for (const [code, rate] of Object.entries(table.rates))
    validateRecord(VatRate, rate, file, `rates.${code}`, problems);
  if (problems.length > before) return undefined;
  problems.push(...checkVatRates(table, version, file));
  return problems.length > before ? undefined : table.rates;
}

interface ValidatedList<T> {
  /** How many records the file holds, or undefined when the list itself is unusable. */
  count?: number;
  valid: T[];
  /** Every id or slug written in the file, including those of invalid records. */
  ids: Set<string>;
  /** Valid records with their position in the file. */
  indexed: [number, T][];
}

function validateList<T extends object>(
  cls: new () => T,
  document: unknown,
  key: string,
  file: string,
  idOf: (record: T) => string,
  problems: string[],
): ValidatedList<T> {
  const result: ValidatedList<T> = { valid: [], ids: new Set(), indexed: [] };
  if (document === undefined) return result;
  const list = (document as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(list)) {
    problems.push(`${file}: ${key}: must be an array`);
    return result;
  }
  result.count = list.length;
  const firstIndex = new Map<string, number>();
  list.forEach((item, i) => {
    const label = labelOf(item);
    if (label) result.ids.add(label);
    const record = validateRecord(cls, item, file, `${key}[${i}]${label ? ` (${label})` : ''}`, problems);
    if (!record) return;
    const id = idOf(record);
    const seen = firstIndex.get(id);
    if (seen !== undefined) {
      problems.push(`${file}: ${key}[${i}] (${id}): duplicates the id of ${key}[${seen}]`);
      return;
    }
    firstIndex.set(id, i);
    result.valid.push(record);
    result.indexed.push([i, record]);
  });
  return result;
}

/** The id or slug of a raw record, for messages; only when it is a short printable string. */
function labelOf(item: unknown): string | undefined {
  const record = item as { id?: unknown; slug?: unknown } | null;
  const label = record?.id ?? record?.slug;
  return typeof label === 'string' && /^[\x20-\x7e]{1,80}$/.test(label) ? label : undefined;
}

function readRecommendations(document: unknown, file: string, problems: string[]): Record<string, string> {
  if (document === undefined || document === null || typeof document !== 'object') return {};
  const value = (document as { recommendations?: unknown }).recommendations;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`${file}: recommendations: must be an object mapping a scenario to a provider id`);
    return {};
  }
  const result: Record<string, string> = {};
  for (const [key, id] of Object.entries(value)) {
    if (!RECOMMENDATION_KEY.test(key)) {
      problems.push(`${file}: recommendations.${key}: must be a camelCase scenario name`);
    } else if (typeof id !== 'string') {
      problems.push(`${file}: recommendations.${key}: must be a provider id`);
    } else {
      result[key] = id;
    }
  }
  return result;
}

function checkDeprecations(meta: DatasetMeta, file: string, problems: string[]): void {
  meta.deprecations.forEach((d, i) => {
    const at = `${file}: deprecations[${i}] (${d.field})`;
    const schema = d.field.split('.')[0];
    if (!(DEPRECATABLE_SCHEMAS as readonly string[]).includes(schema)) {
      problems.push(`${at}.field: must name a field of ${DEPRECATABLE_SCHEMAS.join(', ')}`);
    }
    const days = (Date.parse(d.sunsetAt) - Date.parse(d.deprecatedAt)) / DAY_MS;
    if (days < MIN_SUNSET_DAYS) {
      problems.push(`${at}.sunsetAt: must be at least ${MIN_SUNSET_DAYS} days after deprecatedAt (is ${days})`);
    }
  });
}

/** Guide types generated from the dataset's plans and prices (`npm run guides:generate`). */
const QUOTES_FIGURES: readonly string[] = ['review', 'comparison', 'best-of', 'alternatives'];

function validateGuide(
  raw: RawGuide,
  meta: DatasetMeta | undefined,
  authorIds: Set<string> | undefined,
  figuresDate: ((type: string, slug: string) => string | undefined) | undefined,
  today: string | undefined,
  problems: string[],
): GuideEntry | undefined {
  const before = problems.length;
  const fm = validateRecord(GuideFrontMatter, raw.frontMatter, raw.file, 'front matter', problems);
  if (!fm) return undefined;
  const at = `${raw.file}: front matter`;
  if (fm.slug !== raw.fileSlug) problems.push(`${at}.slug: must equal the file name (${raw.fileSlug})`);
  if (meta && fm.published > meta.version) {
    problems.push(`${at}.published: must not be after the dataset version (${meta.version})`);
  }
  if (fm.updated !== undefined) {
    if (fm.updated < fm.published) problems.push(`${at}.updated: must not be before published (${fm.published})`);
    if (meta && fm.updated > meta.version)
      problems.push(`${at}.updated: must not be after the dataset version (${meta.version})`);
  }
  const quotedDate = figuresDate && QUOTES_FIGURES.includes(fm.type) ? figuresDate(fm.type, fm.slug) : undefined;
  // A source read after the release is refused where it is written; the guide is not refused for it too.
  if (quotedDate && (fm.updated ?? fm.published) < quotedDate && !(meta && quotedDate > meta.version)) {
    problems.push(
      `${at}.updated: a ${fm.type} guide quotes the dataset's figures, so it must be dated no earlier than the newest of them (${quotedDate}); regenerate it`,
    );
  }
  if (authorIds && !authorIds.has(fm.author)) problems.push(`${at}.author: names no author ("${fm.author}")`);
  checkReviewed(fm, today, at, problems);
  const markdown = raw.body.trim();
  if (markdown.length === 0) problems.push(`${raw.file}: body: must not be empty`);
  if (problems.length > before) return undefined;
  const wordCount = countWords(markdown);
  return { ...fm, markdown: `${markdown}\n`, wordCount, readTimeMinutes: readTimeMinutes(wordCount) };
}

/**
 * `verifiedWith` and `reviewed` say what a tutorial was checked against and when, `writtenFor` the versions
 * its steps were written for that no check ran (the versions themselves are held to `software-releases.json`,
 * and `verifiedWith` to what the checks ran, by the tests). `reviewed` is the day a person or a check last read
 * the tutorial against its software, per tutorial: it may be after the dataset version (a check of the
 * working data between releases), never after the day of this validation (no check has run in the future).
 */
function checkReviewed(fm: GuideFrontMatter, today: string | undefined, at: string, problems: string[]): void {
  for (const field of ['verifiedWith', 'writtenFor', 'reviewed', 'systems'] as const) {
    if (fm[field] !== undefined && fm.type !== 'tutorial')
      problems.push(`${at}.${field}: only a tutorial states the systems and software versions it was checked against`);
  }
  if (fm.type === 'tutorial' && fm.systems === undefined)
    problems.push(`${at}.systems: is required on a tutorial (the systems its steps are written for)`);
  for (const field of ['verifiedWith', 'writtenFor'] as const)
    if (fm[field] !== undefined && fm.reviewed === undefined)
      problems.push(`${at}.reviewed: is required with ${field} (the day the versions were read)`);
  if (fm.reviewed === undefined) return;
  if (fm.reviewed < fm.published) problems.push(`${at}.reviewed: must not be before published (${fm.published})`);
  if (today && fm.reviewed > today)
    problems.push(`${at}.reviewed: must not be after today (${today}): no check has read the tutorial yet`);
}
