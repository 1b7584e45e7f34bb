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
    expect(problemsAfter((raw) => (provider(raw, 'hetzner').sources[0].retrievedAt = dayAfter(version))).filter((p) => p.includes('.sources['))).toEqual([
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

  describe('plan lines and price bases', () => {
    const line = (raw: Json, providerId: string, lineId: string) => provider(raw, providerId).planLines.find((l: Json) => l.id === lineId);
    const plan = (raw: Json, providerId: string, name: string) => provider(raw, providerId).plans.find((p: Json) => p.name === name);
    const at = (raw: Json, providerId: string) => `data/providers.json: providers[${raw.providers.providers.indexOf(provider(raw, providerId))}] (${providerId})`;

    it('refuses a prepaid-term line without its term', () => {
      const problems = problemsAfter((raw) => (line(raw, 'hostinger', 'kvm').termMonths = null));
      expect(problems).toEqual([`${at(pristine as Json, 'hostinger')}.planLines[0].termMonths: a prepaid-term line must say how many months the price needs`]);
    });

    it('refuses a term on a line billed without commitment', () => {
      expect(problemsAfter((raw) => (line(raw, 'hetzner', 'cx').termMonths = 12))).toEqual([
        'data/providers.json: providers[0] (hetzner).planLines[0].termMonths: must be null unless priceBasis is prepaid-term',
      ]);
    });

    it('refuses monthToMonthSold on a line that is not a prepaid term', () => {
      expect(problemsAfter((raw) => (line(raw, 'hetzner', 'cx').monthToMonthSold = true))).toEqual([
        'data/providers.json: providers[0] (hetzner).planLines[0].monthToMonthSold: only a prepaid-term line can say whether it is also sold month to month',
      ]);
    });

    it('refuses a plan whose line does not exist, naming the lines there are', () => {
      expect(problemsAfter((raw) => (plan(raw, 'hetzner', 'CX23').line = 'cz'))).toEqual([
        'data/providers.json: providers[0] (hetzner).plans[0] (CX23).line: names no plan line of hetzner ("cz"); lines: cx, cax, cpx, ccx',
      ]);
    });

    it('refuses a line no plan belongs to, and a duplicated line id', () => {
      const problems = problemsAfter((raw) => provider(raw, 'hostinger').planLines.push({ ...line(raw, 'hostinger', 'kvm'), name: 'Again' }));
      expect(problems).toEqual([`${at(pristine as Json, 'hostinger')}.planLines[1].id: duplicates planLines[0] ("kvm")`]);
      const empty = problemsAfter((raw) => provider(raw, 'hostinger').planLines.push({ ...line(raw, 'hostinger', 'kvm'), id: 'kvm-gpu' }));
      expect(empty).toEqual([`${at(pristine as Json, 'hostinger')}.planLines[1]: no plan belongs to the line "kvm-gpu"`]);
    });

    it('refuses an incomplete line that does not say what it leaves out', () => {
      expect(problemsAfter((raw) => delete line(raw, 'hetzner', 'cx').notListed)).toEqual([
        'data/providers.json: providers[0] (hetzner).planLines[0].notListed: an incomplete line must say what the dataset leaves out',
      ]);
    });

    it('refuses a promotional price without its renewal price, and accepts null for one that could not be confirmed', () => {
      const where = `${at(pristine as Json, 'hostinger')}.plans[0] (KVM 1)`;
      expect(problemsAfter((raw) => delete plan(raw, 'hostinger', 'KVM 1').renewalPrice)).toEqual([
        `${where}.renewalPrice: a promotional price needs its renewal price (null only when it could not be confirmed)`,
      ]);
      expect(problemsAfter((raw) => (plan(raw, 'hostinger', 'KVM 1').renewalPrice = null))).toEqual([]);
      expect(problemsAfter((raw) => (plan(raw, 'hostinger', 'KVM 1').renewalPrice = 4.98))).toEqual([`${where}.renewalPrice: must not be below the headline price (4.99)`]);
      expect(problemsAfter((raw) => (plan(raw, 'hostinger', 'KVM 1').renewalPrice = 4.99))).toEqual([]);
    });

    it('refuses a renewal price on a plan whose price is not promotional', () => {
      expect(problemsAfter((raw) => (plan(raw, 'hetzner', 'CX23').renewalPrice = 5))).toEqual([
        'data/providers.json: providers[0] (hetzner).plans[0] (CX23).renewalPrice: only plans of a promotional line have a renewal price',
      ]);
    });

    it('refuses a prepaid plan sold month to month without that price, and one on a line that has no term', () => {
      const vds = (pristine as Json).providers.providers.find((p: Json) => p.id === 'contabo').plans.findIndex((p: Json) => p.name === 'Cloud VDS S');
      expect(problemsAfter((raw) => delete plan(raw, 'contabo', 'Cloud VDS S').monthToMonthPrice)).toEqual([
        `${at(pristine as Json, 'contabo')}.plans[${vds}] (Cloud VDS S).monthToMonthPrice: a prepaid plan also sold month to month needs that price (null only when it could not be confirmed)`,
      ]);
      expect(problemsAfter((raw) => (plan(raw, 'hetzner', 'CX23').monthToMonthPrice = 3.49))).toEqual([
        'data/providers.json: providers[0] (hetzner).plans[0] (CX23).monthToMonthPrice: only plans of a prepaid-term line sold month to month carry a separate month-to-month price',
      ]);
    });
  });

  describe('derived figures', () => {
    it('refuses an overall rating off the weighted mean of the sub-scores, and accepts one 0.05 away', () => {
      const p = (pristine as Json).providers.providers[0];
      const w = (pristine as Json).meta.ratingWeights;
      const mean = Object.keys(w).reduce((sum: number, k: string) => sum + w[k] * p.ratings[k], 0);
      expect(problemsAfter((raw) => (provider(raw, 'hetzner').rating = Math.round((mean + 0.2) * 10) / 10))).toEqual([
        `data/providers.json: providers[0] (hetzner).rating: must be the weighted mean of the sub-scores with meta.json's ratingWeights, ${mean.toFixed(2)} (within 0.05)`,
      ]);
      // Move the mean itself to exactly 0.05 from the written rating: still accepted.
      expect(problemsAfter((raw) => {
        const h = provider(raw, 'hetzner');
        h.ratings.performance = Math.round((h.ratings.performance + (h.rating + 0.05 - mean) / w.performance) * 1000) / 1000;
        raw.meta.ratingWeights = w;
      }).filter((x) => x.includes('.rating:'))).toEqual([]);
    });

    it('refuses rating weights that do not add up to 1', () => {
      expect(problemsAfter((raw) => (raw.meta.ratingWeights.support += 0.1))[0]).toMatch(/^data\/meta\.json: ratingWeights: must add up to 1/);
    });

    it('derives bestBudget from the prices, and refuses one written by hand', () => {
      expect(problemsAfter((raw) => (raw.providers.recommendations.bestBudget = 'hostinger'))).toEqual([
        'data/providers.json: recommendations.bestBudget: remove it; it is derived when the dataset loads (the provider with the cheapest plan sold without commitment, in USD)',
      ]);
      expect(validateDataset(pristine).content?.recommendations.bestBudget).toBe('upcloud');
      const raw = structuredClone(pristine) as Json;
      const cx23 = provider(raw, 'hetzner').plans.find((p: Json) => p.name === 'CX23');
      cx23.price = 1;
      provider(raw, 'hetzner').startingPrice = 1;
      expect(validateDataset(raw).content?.recommendations.bestBudget).toBe('hetzner');
    });

    it('refuses a minimum spec no plan sold without commitment meets', () => {
      const problems = problemsAfter((raw) => (raw.useCases.useCases[0].minimumSpec.vcpus = 999));
      expect(problems).toContain('data/use-cases.json: useCases[0] (wordpress).minimumSpec: no plan sold without commitment meets it, so there is no entry price');
    });

    it('refuses a recommended spec no recommended provider sells, unless a note says how to reach it, and a note that explains nothing', () => {
      expect(problemsAfter((raw) => (raw.useCases.useCases[0].recommendedSpec.storageGb = 100000))).toEqual([
        'data/use-cases.json: useCases[0] (wordpress).recommendedSpec: no plan of a recommended provider meets it; lower it, recommend a provider that sells it, or say how it is reached in recommendedSpecNote',
      ]);
      expect(problemsAfter((raw) => Object.assign(raw.useCases.useCases[0], { recommendedSpecNote: 'Attach a volume.' }))).toEqual([
        'data/use-cases.json: useCases[0] (wordpress).recommendedSpecNote: a recommended provider\'s plan meets the recommended spec, so there is nothing to explain',
      ]);
    });
  });

  describe('guide dates', () => {
    it('refuses an update before publication or after the release', () => {
      const version = (pristine as Json).meta.version;
      expect(problemsAfter((raw) => Object.assign(guide(raw, 'install-docker'), { published: '2026-01-10', updated: '2026-01-09' }))).toEqual([
        'data/guides/install-docker.md: front matter.updated: must not be before published (2026-01-10)',
      ]);
      expect(problemsAfter((raw) => (guide(raw, 'install-docker').updated = dayAfter(version)))).toEqual([
        `data/guides/install-docker.md: front matter.updated: must not be after the dataset version (${version})`,
      ]);
    });

    it('refuses a generated guide dated before the figures it quotes, and accepts one dated on their day', () => {
      const version = (pristine as Json).meta.version;
      expect(problemsAfter((raw) => (guide(raw, 'hetzner-review').updated = '2026-02-01'))).toEqual([
        `data/guides/hetzner-review.md: front matter.updated: a review guide quotes the dataset's figures, so it must be dated no earlier than the newest of them (${version}); regenerate it`,
      ]);
      expect(problemsAfter((raw) => (guide(raw, 'hetzner-review').updated = version))).toEqual([]);
    });
  });

  describe('boundaries and the rules a mutant once deleted', () => {
    it('accepts a sunset exactly 180 days after the deprecation', () => {
      expect(
        problemsAfter((raw) =>
          raw.meta.deprecations.push({ field: 'Provider.affiliateUrl', deprecatedAt: '2026-01-01', sunsetAt: '2026-06-30', link: 'https://example.com/changes' }),
        ),
      ).toEqual([]);
      expect(
        problemsAfter((raw) =>
          raw.meta.deprecations.push({ field: 'Provider.affiliateUrl', deprecatedAt: '2026-01-01', sunsetAt: '2026-06-29', link: 'https://example.com/changes' }),
        ),
      ).toEqual(['data/meta.json: deprecations[0] (Provider.affiliateUrl).sunsetAt: must be at least 180 days after deprecatedAt (is 179)']);
    });

    it('accepts a guide published on the day of the dataset version', () => {
      expect(problemsAfter((raw) => (guide(raw, 'install-docker').published = (pristine as Json).meta.version))).toEqual([]);
    });

    it('refuses a use case whose url is not its own page', () => {
      expect(problemsAfter((raw) => (raw.useCases.useCases[1].url = '/use-cases/wordpress'))).toEqual([
        'data/use-cases.json: useCases[1] (web-app).url: must be /use-cases/web-app',
      ]);
    });

    it('refuses a recommendation key that is not a camelCase scenario name, and one that is not a provider id', () => {
      expect(problemsAfter((raw) => (raw.providers.recommendations['best-overall'] = 'hetzner'))).toEqual([
        'data/providers.json: recommendations.best-overall: must be a camelCase scenario name',
      ]);
      expect(problemsAfter((raw) => (raw.providers.recommendations.bestValue = 7))).toEqual(['data/providers.json: recommendations.bestValue: must be a provider id']);
    });
  });
});
