import { resolve } from 'node:path';
import { readDatasetFiles, type RawDataset } from './dataset-files';
import { validateDataset } from './dataset-validator';

/** The calendar day after `date` (YYYY-MM-DD). */
const dayAfter = (date: string) => new Date(Date.parse(date) + 86_400_000).toISOString().slice(0, 10);

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('validateDataset', () => {
  let pristine: RawDataset;

  beforeAll(async () => {
    const { raw, problems } = await readDatasetFiles(resolve('data'));
    expect(problems).toEqual([]);
    pristine = raw;
  });

  /** A deep copy of the embedded dataset, changed by `edit`, validated. */
  function problemsAfter(edit: (raw: RawDataset & { providers: Json; useCases: Json; meta: Json; authors: Json }) => void): string[] {
    const raw = structuredClone(pristine) as Json;
    edit(raw);
    return validateDataset(raw).problems;
  }
  const provider = (raw: Json, id: string) => raw.providers.providers.find((p: Json) => p.id === id);
  const guide = (raw: Json, slug: string) => raw.guides.find((g: Json) => g.fileSlug === slug).frontMatter;

  it('accepts the embedded dataset', () => {
    const { content, problems } = validateDataset(pristine);
    expect(problems).toEqual([]);
    expect(content?.providers.map((p) => p.id)).toEqual([
      'hetzner', 'digitalocean', 'vultr', 'linode', 'ovhcloud', 'contabo', 'hostinger', 'upcloud',
    ]);
  });

  it('names file, record and field of a mistyped price', () => {
    expect(problemsAfter((raw) => (raw.providers.providers[2].plans[1].price = '10'))).toEqual([
      'data/providers.json: providers[2] (vultr).plans[1].price: must be a number',
    ]);
  });

  it('refuses a rating above 5', () => {
    expect(problemsAfter((raw) => (provider(raw, 'hetzner').rating = 5.5))).toEqual([
      'data/providers.json: providers[0] (hetzner).rating: must not be greater than 5',
    ]);
  });

  it('refuses a negative sub-rating', () => {
    expect(problemsAfter((raw) => (provider(raw, 'linode').ratings.support = -1))).toEqual([
      'data/providers.json: providers[3] (linode).ratings.support: must not be less than 0',
    ]);
  });

  it('refuses a currency that is not ISO 4217', () => {
    expect(problemsAfter((raw) => (provider(raw, 'contabo').currency = 'EURO'))).toEqual([
      'data/providers.json: providers[5] (contabo).currency: must be a valid ISO4217 currency code',
    ]);
  });

  it('refuses a plan billed in another currency than its provider', () => {
    expect(problemsAfter((raw) => (provider(raw, 'vultr').plans[3].currency = 'EUR'))).toEqual([
      "data/providers.json: providers[2] (vultr).plans[3].currency: must equal the provider's currency (USD)",
    ]);
  });

  it('refuses a startingPrice that is not the cheapest plan', () => {
    expect(problemsAfter((raw) => (provider(raw, 'digitalocean').startingPrice = 5))).toEqual([
      "data/providers.json: providers[1] (digitalocean).startingPrice: must equal the cheapest plan's price (4)",
    ]);
  });

  it('refuses an id that is not a lowercase slug', () => {
    // Every reference to upcloud now dangles too, and is reported as such.
    expect(problemsAfter((raw) => (provider(raw, 'upcloud').id = 'UpCloud'))).toContain(
      'data/providers.json: providers[7] (UpCloud).id: must be a lowercase slug (a-z, 0-9, single hyphens)',
    );
  });

  it('refuses duplicate provider ids', () => {
    expect(
      problemsAfter((raw) => {
        const copy = structuredClone(provider(raw, 'hetzner'));
        raw.providers.providers[7] = copy;
      }),
    ).toContain('data/providers.json: providers[7] (hetzner): duplicates the id of providers[0]');
  });

  it('requires exactly eight providers', () => {
    expect(problemsAfter((raw) => raw.providers.providers.pop())).toContain(
      'data/providers.json: providers: must hold exactly 8 providers (found 7)',
    );
  });

  it('refuses a date that does not exist', () => {
    expect(problemsAfter((raw) => (provider(raw, 'hetzner').sources[0].retrievedAt = '2026-02-30'))).toEqual([
      'data/providers.json: providers[0] (hetzner).sources[0].retrievedAt: must be a real calendar date written YYYY-MM-DD',
    ]);
  });

  it('refuses a source read after the release that cites it, and accepts one read on the release day', () => {
    const version = (pristine as Json).meta.version as string;
    expect(problemsAfter((raw) => (provider(raw, 'hetzner').sources[0].retrievedAt = dayAfter(version)))).toEqual([
      `data/providers.json: providers[0] (hetzner).sources[0].retrievedAt: must not be after the dataset version (${version}): a page cannot be read after the release that cites it`,
    ]);
    expect(problemsAfter((raw) => (provider(raw, 'hetzner').sources[0].retrievedAt = version))).toEqual([]);
  });

  it('refuses a page date after the day the page was read', () => {
    expect(problemsAfter((raw) => Object.assign(provider(raw, 'hetzner').sources[0], { retrievedAt: '2026-02-03', pageDate: '2026-02-04' }))).toEqual([
      'data/providers.json: providers[0] (hetzner).sources[0].pageDate: must not be after retrievedAt (2026-02-03)',
    ]);
  });

  it('refuses a bestFor slug that names no use case', () => {
    expect(problemsAfter((raw) => provider(raw, 'vultr').bestFor.push('crypto-mining'))).toEqual([
      `data/providers.json: providers[2] (vultr).bestFor[${(pristine as Json).providers.providers[2].bestFor.length}]: names no use case ("crypto-mining")`,
    ]);
  });

  it('refuses a recommendation that names no provider', () => {
    expect(problemsAfter((raw) => (raw.providers.recommendations.bestOverall = 'aws'))).toEqual([
      'data/providers.json: recommendations.bestOverall: names no provider ("aws")',
    ]);
  });

  it('refuses a recommended provider of a use case that does not exist', () => {
    expect(problemsAfter((raw) => (raw.useCases.useCases[0].recommendedProviders[0].id = 'aws'))).toEqual([
      'data/use-cases.json: useCases[0] (wordpress).recommendedProviders[0].id: names no provider ("aws")',
    ]);
  });

  it('refuses a provider url that is not its review path', () => {
    expect(problemsAfter((raw) => (provider(raw, 'hetzner').url = '/providers/vultr'))).toEqual([
      'data/providers.json: providers[0] (hetzner).url: must be /providers/hetzner',
    ]);
  });

  it('reports a missing field as required', () => {
    expect(problemsAfter((raw) => delete provider(raw, 'linode').verdict)).toEqual([
      'data/providers.json: providers[3] (linode).verdict: is required',
    ]);
  });

  it('reports an unknown field, so typos cannot hide', () => {
    expect(problemsAfter((raw) => (provider(raw, 'linode').plans[0].prise = 5))).toEqual([
      'data/providers.json: providers[3] (linode).plans[0].prise: is not a known field',
    ]);
  });

  it('refuses guide slugs that are not URL-safe', () => {
    expect(problemsAfter((raw) => (guide(raw, 'hetzner-review').slug = 'Hetzner Review'))).toEqual([
      'data/guides/hetzner-review.md: front matter.slug: must be a lowercase slug (a-z, 0-9, single hyphens)',
    ]);
  });

  it('refuses a guide slug that differs from its file name', () => {
    expect(problemsAfter((raw) => (guide(raw, 'hetzner-review').slug = 'hetzner-review-2'))).toEqual([
      'data/guides/hetzner-review.md: front matter.slug: must equal the file name (hetzner-review)',
    ]);
  });

  it('refuses a guide published after the dataset version', () => {
    expect(problemsAfter((raw) => (guide(raw, 'install-docker').published = dayAfter((pristine as Json).meta.version)))).toEqual([
      `data/guides/install-docker.md: front matter.published: must not be after the dataset version (${(pristine as Json).meta.version})`,
    ]);
  });

  it('refuses a guide type outside the declared list', () => {
    expect(problemsAfter((raw) => (guide(raw, 'install-docker').type = 'howto'))).toEqual([
      'data/guides/install-docker.md: front matter.type: must be one of review, comparison, workload, best-of, alternatives, tutorial',
    ]);
  });

  it('refuses a guide whose author does not exist', () => {
    expect(problemsAfter((raw) => (guide(raw, 'install-docker').author = 'nobody'))).toEqual([
      'data/guides/install-docker.md: front matter.author: names no author ("nobody")',
    ]);
  });

  it('refuses duplicate use-case slugs', () => {
    expect(problemsAfter((raw) => (raw.useCases.useCases[3] = structuredClone(raw.useCases.useCases[0])))).toContain(
      'data/use-cases.json: useCases[3] (wordpress): duplicates the id of useCases[0]',
    );
  });

  it('refuses a deprecation whose sunset comes less than 180 days after it', () => {
    expect(
      problemsAfter((raw) =>
        raw.meta.deprecations.push({
          field: 'Provider.affiliateUrl',
          deprecatedAt: '2026-01-01',
          sunsetAt: '2026-03-01',
          link: 'https://example.com/changes',
        }),
      ),
    ).toEqual([
      'data/meta.json: deprecations[0] (Provider.affiliateUrl).sunsetAt: must be at least 180 days after deprecatedAt (is 59)',
    ]);
  });

  it('refuses a deprecation of a schema that has no such records', () => {
    expect(
      problemsAfter((raw) =>
        raw.meta.deprecations.push({
          field: 'Vendor.name',
          deprecatedAt: '2026-01-01',
          sunsetAt: '2026-12-01',
          link: 'https://example.com/changes',
        }),
      ),
    ).toEqual(['data/meta.json: deprecations[0] (Vendor.name).field: must name a field of Provider, Plan, UseCase, Guide']);
  });

  it('requires an exchange rate for every billing currency', () => {
    expect(problemsAfter((raw: Json) => delete raw.exchangeRates.rates.USD)).toEqual([
      'data/exchange-rates.json: rates: must include USD, a currency plans are billed or compared in',
    ]);
  });

  it('refuses an exchange-rate table without a real date', () => {
    expect(problemsAfter((raw: Json) => (raw.exchangeRates.date = '2026-13-01'))).toEqual([
      'data/exchange-rates.json: date: must be a real calendar date written YYYY-MM-DD',
    ]);
  });

  it('names the field of a file that is one record', () => {
    expect(problemsAfter((raw: Json) => (raw.meta.license.credit = ''))).toEqual(['data/meta.json: license.credit: must not be empty']);
  });

  it('reports every problem at once, one line each', () => {
    const problems = problemsAfter((raw) => {
      provider(raw, 'hetzner').rating = 9;
      provider(raw, 'vultr').plans[0].ram = 'lots';
      guide(raw, 'install-docker').published = 'yesterday';
    });
    expect(problems).toEqual([
      'data/providers.json: providers[0] (hetzner).rating: must not be greater than 5',
      'data/providers.json: providers[2] (vultr).plans[0].ram: must read like "4GB" or "512MB"',
      'data/guides/install-docker.md: front matter.published: must be a real calendar date written YYYY-MM-DD',
    ]);
  });
});
