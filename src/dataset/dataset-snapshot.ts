import type { AuthorRecord } from './dto/author.dto.js';
import type { DatasetRelease } from './dto/changelog.dto.js';
import type { GuideFrontMatter } from './dto/guide.dto.js';
import type { DatasetMeta } from './dto/meta.dto.js';
import type { ProviderRecord } from './dto/provider.dto.js';
import type { UseCaseRecord } from './dto/use-case.dto.js';
import type { VatRate } from './dto/vat-rates.dto.js';
import type { ExchangeRates } from './exchange-rates.js';

/** A validated guide: its front matter, body and derived figures. */
export interface GuideEntry extends GuideFrontMatter {
  markdown: string;
  wordCount: number;
  readTimeMinutes: number;
}

export interface DatasetContent {
  meta: DatasetMeta;
  recommendations: Record<string, string>;
  providers: ProviderRecord[];
  useCases: UseCaseRecord[];
  authors: AuthorRecord[];
  /** Newest first: `published` descending, then slug. */
  guides: GuideEntry[];
  exchangeRates: ExchangeRates;
  /** Standard VAT rates of the EU member states and GB, by ISO 3166-1 alpha-2 code (`vat-rates.json`). */
  vatRates: Record<string, VatRate>;
  /** Every release of the dataset, oldest first (`changelog.json`); empty when it was never released. */
  changelog: DatasetRelease[];
}

/**
 * One whole, validated version of the dataset with its lookup indexes, aged to one day (`asOf`).
 * Immutable: a reload builds a new snapshot and swaps it in, and a new UTC day ages the one served
 * into a new snapshot of the same content (`agedOn`), so a request only ever sees one version on one day.
 */
export class DatasetSnapshot implements DatasetContent {
  readonly meta: DatasetMeta;
  readonly recommendations: Record<string, string>;
  readonly providers: ProviderRecord[];
  readonly useCases: UseCaseRecord[];
  readonly authors: AuthorRecord[];
  readonly guides: GuideEntry[];
  readonly exchangeRates: ExchangeRates;
  readonly vatRates: Record<string, VatRate>;
  readonly changelog: DatasetRelease[];
  readonly providersById: ReadonlyMap<string, ProviderRecord>;
  readonly useCasesBySlug: ReadonlyMap<string, UseCaseRecord>;
  readonly authorsById: ReadonlyMap<string, AuthorRecord>;
  readonly guidesBySlug: ReadonlyMap<string, GuideEntry>;

  /** The day (UTC, `YYYY-MM-DD`) the prices' ages are measured to: the day of the answer, never before the version. */
  readonly asOf: string;

  constructor(
    content: DatasetContent,
    readonly dir: string,
    readonly loadedAt: Date = new Date(),
    asOf?: string,
  ) {
    Object.assign(this, content);
    this.asOf = ageDay(content.meta.version, asOf ?? utcDay(loadedAt));
    this.providersById = new Map(content.providers.map((p) => [p.id, p]));
    this.useCasesBySlug = new Map(content.useCases.map((u) => [u.slug, u]));
    this.authorsById = new Map(content.authors.map((a) => [a.id, a]));
    this.guidesBySlug = new Map(content.guides.map((g) => [g.slug, g]));
  }

  get version(): string {
    return this.meta.version;
  }

  /** The same dataset with its prices aged to `day` (this snapshot when it already is): what views built for that day read. */
  agedOn(day: string): DatasetSnapshot {
    if (ageDay(this.version, day) === this.asOf) return this;
    const content: DatasetContent = {
      meta: this.meta,
      recommendations: this.recommendations,
      providers: this.providers,
      useCases: this.useCases,
      authors: this.authors,
      guides: this.guides,
      exchangeRates: this.exchangeRates,
      vatRates: this.vatRates,
      changelog: this.changelog,
    };
    return new DatasetSnapshot(content, this.dir, this.loadedAt, day);
  }
}

/** The UTC calendar day of an instant, `YYYY-MM-DD`. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** The day ages are measured to: `day`, or the version when the clock is behind it (a release is never younger than its own date). */
const ageDay = (version: string, day: string): string => (day > version ? day : version);
