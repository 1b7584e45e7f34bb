import type { RawDataset } from './dataset-files.js';
import { validateDataset } from './dataset-validator.js';
import { reasonClaims } from './reason-claims.js';
import {
  datasetEditor,
  guide,
  line,
  plan,
  provider,
  readEmbeddedDataset,
  smallDataset,
  useCase,
  type Json,
} from '../../test/support/dataset-fixture.js';

/** The calendar day after / before `date` (YYYY-MM-DD). */
const dayAfter = (date: string) => new Date(Date.parse(date) + 86_400_000).toISOString().slice(0, 10);
const dayBefore = (date: string) => new Date(Date.parse(date) - 86_400_000).toISOString().slice(0, 10);
const LINK = 'https://example.com/changes';
/** A plan of the provider not known to be unorderable: what an entry price or bestBudget may rest on. */
const orderablePlan = (p: Json): Json => p.plans.find((plan: Json) => plan.availability?.orderable !== false);

/**
 * Each rule is refused on the small fixture dataset (test/support/dataset-fixture.ts) changed in one
 * place, and each boundary is accepted at its equal case. The embedded dataset is validated once.
 */
describe('validateDataset', () => {
  let embedded: RawDataset;
  let small: RawDataset;
  let d: ReturnType<typeof datasetEditor>;

  beforeAll(async () => {
    embedded = await readEmbeddedDataset();
    small = smallDataset(embedded);
    d = datasetEditor(small);
  });
  const problemsAfter = (edit: (raw: Json) => void, today?: string) => d.problemsAfter(edit, today);
  const resultAfter = (edit: (raw: Json) => void) => d.resultAfter(edit);
  const at = (id: string) => d.at(id);

  it("dates no tutorial's review after the day of this test (UTC)", () => {
    expect(validateDataset(embedded, new Date().toISOString().slice(0, 10)).problems).toEqual([]);
  });

  it('accepts the embedded dataset', () => {
    const { content, problems } = validateDataset(embedded);
    expect(problems).toEqual([]);
    expect(content?.providers.map((p) => p.id)).toEqual([
      'hetzner',
      'digitalocean',
      'vultr',
      'linode',
      'ovhcloud',
      'contabo',
      'hostinger',
      'upcloud',
    ]);
  });

  it('accepts the small fixture and returns its content', () => {
    const { content, problems } = validateDataset(small);
    const raw = small as Json;
    expect(problems).toEqual([]);
    expect(content?.meta).toEqual(raw.meta);
    expect(content?.providers).toEqual(raw.providers.providers);
    expect(content?.useCases).toEqual(raw.useCases.useCases);
    expect(content?.authors).toEqual(raw.authors.authors);
    expect(content?.changelog).toEqual(raw.changelog.releases);
    expect(content?.vatRates).toEqual(raw.vatRates.rates);
    expect(content?.exchangeRates.date).toBe(raw.exchangeRates.date);
    expect(Object.keys(content!.recommendations).sort()).toEqual(
      [...Object.keys(raw.providers.recommendations), 'bestBudget'].sort(),
    );
  });

  describe('records against their classes', () => {
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

    it('refuses an id that is not a lowercase slug', () => {
      // Every reference to upcloud now dangles too, and is reported as such.
      expect(problemsAfter((raw) => (provider(raw, 'upcloud').id = 'UpCloud'))).toContain(
        'data/providers.json: providers[7] (UpCloud).id: must be a lowercase slug (a-z, 0-9, single hyphens)',
      );
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

    it('refuses a date that does not exist', () => {
      expect(problemsAfter((raw) => (provider(raw, 'hetzner').sources[0].retrievedAt = '2026-02-30'))).toEqual([
        'data/providers.json: providers[0] (hetzner).sources[0].retrievedAt: must be a real calendar date written YYYY-MM-DD',
      ]);
    });

    it('names the field of a file that is one record', () => {
      expect(problemsAfter((raw) => (raw.meta.license.credit = ''))).toEqual([
        'data/meta.json: license.credit: must not be empty',
      ]);
    });

    it('reports every problem at once, one line each', () => {
      expect(
        problemsAfter((raw) => {
          provider(raw, 'hetzner').rating = 9;
          provider(raw, 'vultr').plans[0].ram = 'lots';
          guide(raw, 'install-docker').published = 'yesterday';
        }),
      ).toEqual([
        'data/providers.json: providers[0] (hetzner).rating: must not be greater than 5',
        'data/providers.json: providers[2] (vultr).plans[0].ram: must read like "4GB" or "512MB"',
        'data/guides/install-docker.md: front matter.published: must be a real calendar date written YYYY-MM-DD',
      ]);
    });
  });

  describe('lists of records', () => {
    it('refuses a file whose list is not an array, for each list', () => {
      expect(problemsAfter((raw) => (raw.providers.providers = {}))).toContain(
        'data/providers.json: providers: must be an array',
      );
      expect(problemsAfter((raw) => (raw.useCases = null))).toEqual([
        'data/use-cases.json: useCases: must be an array',
      ]);
      expect(problemsAfter((raw) => (raw.authors = { authors: 'lena-brandt' }))).toContain(
        'data/authors.json: authors: must be an array',
      );
      expect(problemsAfter((raw) => (raw.changelog = { releases: {} }))).toEqual([
        'data/changelog.json: releases: must be an array',
      ]);
    });

    it('requires exactly eight providers', () => {
      expect(problemsAfter((raw) => raw.providers.providers.pop())).toContain(
        'data/providers.json: providers: must hold exactly 8 providers (found 7)',
      );
      expect(
        problemsAfter((raw) =>
          raw.providers.providers.push({
            ...provider(raw, 'hetzner'),
            id: 'hetzner-two',
            url: '/providers/hetzner-two',
          }),
        ),
      ).toEqual(['data/providers.json: providers: must hold exactly 8 providers (found 9)']);
    });

    it('refuses duplicate provider ids and use-case slugs', () => {
      expect(
        problemsAfter((raw) => (raw.providers.providers[7] = structuredClone(provider(raw, 'hetzner')))),
      ).toContain('data/providers.json: providers[7] (hetzner): duplicates the id of providers[0]');
      expect(problemsAfter((raw) => (raw.useCases.useCases[2] = structuredClone(raw.useCases.useCases[0])))).toContain(
        'data/use-cases.json: useCases[2] (wordpress): duplicates the id of useCases[0]',
      );
    });

    it('labels a record by its id or slug only when that is short printable text', () => {
      expect(problemsAfter((raw) => (raw.authors.authors[0].name = ''))).toEqual([
        `data/authors.json: authors[0] (${(small as Json).authors.authors[0].id}).name: must not be empty`,
      ]);
      expect(problemsAfter((raw) => (raw.useCases.useCases[0].title = ''))).toEqual([
        'data/use-cases.json: useCases[0] (wordpress).title: must not be empty',
      ]);
      const long = 'x'.repeat(81);
      expect(problemsAfter((raw) => Object.assign(raw.authors.authors[0], { id: long, name: '' }))).toContain(
        'data/authors.json: authors[0].name: must not be empty',
      );
      expect(problemsAfter((raw) => Object.assign(raw.authors.authors[0], { id: 'x'.repeat(80), name: '' }))).toContain(
        `data/authors.json: authors[0] (${'x'.repeat(80)}).name: must not be empty`,
      );
      expect(problemsAfter((raw) => Object.assign(raw.authors.authors[0], { id: 'a\nb', name: '' }))).toContain(
        'data/authors.json: authors[0].name: must not be empty',
      );
      expect(problemsAfter((raw) => Object.assign(raw.authors.authors[0], { id: 'x', name: '' }))).toContain(
        'data/authors.json: authors[0] (x).name: must not be empty',
      );
      expect(problemsAfter((raw) => Object.assign(raw.authors.authors[0], { id: 7, name: '' }))).toContain(
        'data/authors.json: authors[0].name: must not be empty',
      );
      expect(problemsAfter((raw) => (raw.authors.authors[0] = null))).toContain(
        'data/authors.json: authors[0]: must be an object',
      );
    });

    it('reports a reference to an invalid record once, at the record', () => {
      expect(problemsAfter((raw) => (provider(raw, 'upcloud').rating = 'high'))).toEqual([
        'data/providers.json: providers[7] (upcloud).rating: must be a number',
      ]);
    });
  });

  describe('references', () => {
    it('refuses a bestFor slug that names no use case', () => {
      const n = provider(small, 'vultr').bestFor.length;
      expect(problemsAfter((raw) => provider(raw, 'vultr').bestFor.push('crypto-mining'))).toEqual([
        `data/providers.json: providers[2] (vultr).bestFor[${n}]: names no use case ("crypto-mining")`,
      ]);
    });

    it('checks no bestFor slug while the use-case file is unusable', () => {
      expect(problemsAfter((raw) => (raw.useCases = { useCases: 'none' }))).toEqual([
        'data/use-cases.json: useCases: must be an array',
      ]);
    });

    it('refuses a recommendation that names no provider, unless the provider file is unusable', () => {
      expect(problemsAfter((raw) => (raw.providers.recommendations.bestOverall = 'aws'))).toEqual([
        'data/providers.json: recommendations.bestOverall: names no provider ("aws")',
      ]);
      expect(
        problemsAfter((raw) =>
          Object.assign(raw.providers, { providers: 'none', recommendations: { bestOverall: 'aws' } }),
        ),
      ).toEqual(['data/providers.json: providers: must be an array']);
    });

    it('refuses a recommended provider of a use case that does not exist, unless the provider file is unusable', () => {
      expect(problemsAfter((raw) => (raw.useCases.useCases[0].recommendedProviders[0].id = 'aws'))).toEqual([
        'data/use-cases.json: useCases[0] (wordpress).recommendedProviders[0].id: names no provider ("aws")',
      ]);
      expect(
        problemsAfter((raw) => {
          raw.useCases.useCases[0].recommendedProviders[0].id = 'aws';
          raw.providers.providers = 'none';
        }),
      ).toEqual(['data/providers.json: providers: must be an array']);
    });

    it('refuses a guide whose author does not exist, unless the author file is unusable', () => {
      expect(problemsAfter((raw) => (guide(raw, 'install-docker').author = 'nobody'))).toEqual([
        'data/guides/install-docker.md: front matter.author: names no author ("nobody")',
      ]);
      expect(
        problemsAfter((raw) => {
          guide(raw, 'install-docker').author = 'nobody';
          raw.authors = {};
        }),
      ).toEqual(['data/authors.json: authors: must be an array']);
    });

    it('refuses a provider url that is not its review path, and a use case url that is not its page', () => {
      expect(problemsAfter((raw) => (provider(raw, 'hetzner').url = '/providers/vultr'))).toEqual([
        'data/providers.json: providers[0] (hetzner).url: must be /providers/hetzner',
      ]);
      expect(problemsAfter((raw) => (raw.useCases.useCases[1].url = '/use-cases/wordpress'))).toEqual([
        'data/use-cases.json: useCases[1] (web-app).url: must be /use-cases/web-app',
      ]);
    });
  });

  describe('recommendations', () => {
    it('refuses a key that is not a camelCase scenario name, and a value that is not a provider id', () => {
      expect(problemsAfter((raw) => (raw.providers.recommendations['best-overall'] = 'hetzner'))).toEqual([
        'data/providers.json: recommendations.best-overall: must be a camelCase scenario name',
      ]);
      expect(problemsAfter((raw) => (raw.providers.recommendations.BestOverall = 'hetzner'))).toEqual([
        'data/providers.json: recommendations.BestOverall: must be a camelCase scenario name',
      ]);
      expect(problemsAfter((raw) => (raw.providers.recommendations.best2 = 'hetzner'))).toEqual([]);
      expect(problemsAfter((raw) => (raw.providers.recommendations.bestValue = 7))).toEqual([
        'data/providers.json: recommendations.bestValue: must be a provider id',
      ]);
    });

    it('refuses a pick a reader cannot act on: nothing still sold, no data centre in its region, best support with support unknown', () => {
      const unknownSupport = small.providers.providers.find((p: Json) => /^unknown\b/.test(p.support));
      const outsideSouthAmerica = small.providers.providers.find(
        (p: Json) => !p.datacenters.some((d: Json) => d.region === 'south-america'),
      );
      expect(unknownSupport).toBeDefined();
      expect(outsideSouthAmerica).toBeDefined();
      expect(problemsAfter((raw) => (raw.providers.recommendations.bestSupport = unknownSupport.id))).toEqual([
        `data/providers.json: recommendations.bestSupport (${unknownSupport.id}): the provider's support is unknown in the data ("${unknownSupport.support.slice(0, 60)}"), so it cannot be named best for support`,
      ]);
      expect(problemsAfter((raw) => (raw.providers.recommendations.bestSouthAmerica = outsideSouthAmerica.id))).toEqual(
        [
          `data/providers.json: recommendations.bestSouthAmerica (${outsideSouthAmerica.id}): the provider has no data centre in South America`,
        ],
      );
      const retireAll = (raw: Json) => {
        for (const l of provider(raw, 'hetzner').planLines)
          l.discontinued = {
            since: null,
            successor: 'nothing',
            source: { url: 'https://example.com/retired', retrievedAt: raw.meta.version },
          };
        raw.providers.recommendations.bestEurope = 'hetzner';
      };
      expect(problemsAfter(retireAll)).toContainEqual(
        'data/providers.json: recommendations.bestEurope (hetzner): the provider sells none of its listed plans any more, so it cannot be recommended',
      );
    });

    it('refuses recommendations that are not an object', () => {
      const message = 'data/providers.json: recommendations: must be an object mapping a scenario to a provider id';
      for (const value of [null, ['hetzner'], 'hetzner', undefined]) {
        expect(problemsAfter((raw) => (raw.providers.recommendations = value))).toEqual([message]);
      }
    });

    it('reads no recommendations from a provider file that is not an object', () => {
      expect(problemsAfter((raw) => (raw.providers = null))).toEqual([
        'data/providers.json: providers: must be an array',
      ]);
      expect(problemsAfter((raw) => (raw.providers = 'text'))).toEqual([
        'data/providers.json: providers: must be an array',
      ]);
    });

    it('derives bestBudget from the prices, and refuses one written by hand', () => {
      expect(problemsAfter((raw) => (raw.providers.recommendations.bestBudget = 'hostinger'))).toEqual([
        'data/providers.json: recommendations.bestBudget: remove it; it is derived when the dataset loads (the provider with the cheapest plan sold without commitment, in USD)',
      ]);
      // A fresh price of a plan that can be ordered: seen on the release day, by a source read that day.
      const cheapest = (raw: Json, id: string, price: number) => {
        const p = provider(raw, id);
        const plan = orderablePlan(p);
        plan.price = price;
        plan.observedAt = raw.meta.version;
        p.planLines.find((l: Json) => l.id === plan.line).source.retrievedAt = raw.meta.version;
        p.startingPrice = price;
      };
      expect(resultAfter((raw) => cheapest(raw, 'hetzner', 0.5)).content?.recommendations.bestBudget).toBe('hetzner');
      // Two providers at the same USD price: the first id wins, not the first in the file.
      expect(
        resultAfter((raw) => (cheapest(raw, 'vultr', 0.5), cheapest(raw, 'linode', 0.5))).content?.recommendations
          .bestBudget,
      ).toBe('linode');
    });

    it('never picks bestBudget on a stale price while a fresh one competes', () => {
      const stale = (raw: Json) => {
        const p = provider(raw, 'hetzner');
        const plan = orderablePlan(p);
        plan.price = 0.01;
        p.startingPrice = 0.01;
        // Seen long before the release: older than the 90-day threshold.
        plan.observedAt = '2020-01-01';
      };
      expect(resultAfter(stale).content?.recommendations.bestBudget).not.toBe('hetzner');
      // The same price seen on the release day wins.
      expect(
        resultAfter((raw) => {
          stale(raw);
          const p = provider(raw, 'hetzner');
          const plan = orderablePlan(p);
          plan.observedAt = raw.meta.version;
          p.planLines.find((l: Json) => l.id === plan.line).source.retrievedAt = raw.meta.version;
        }).content?.recommendations.bestBudget,
      ).toBe('hetzner');
    });

    it('never picks bestBudget on a plan that cannot be ordered, fresh or stale', () => {
      const unorderable = (raw: Json, observedAt: string) => {
        const p = provider(raw, 'hetzner');
        const plan = orderablePlan(p);
        plan.price = 0.01;
        plan.observedAt = observedAt;
        p.planLines.find((l: Json) => l.id === plan.line).source.retrievedAt = raw.meta.version;
        plan.availability = {
          orderable: false,
          observedAt: raw.meta.version,
          source: { url: 'https://example.com/sold-out', retrievedAt: raw.meta.version },
        };
      };
      // Fresh: the cheapest plan of all, were it orderable.
      expect(resultAfter((raw) => unorderable(raw, raw.meta.version)).content?.recommendations.bestBudget).not.toBe(
        'hetzner',
      );
      // Every price stale: the fallback to stale prices does not pick it either.
      const everyPriceStale = (raw: Json) => {
        for (const p of raw.providers.providers) for (const plan of p.plans) plan.observedAt = '2020-01-01';
        unorderable(raw, '2020-01-01');
      };
      expect(resultAfter(everyPriceStale).content?.recommendations.bestBudget).not.toBe('hetzner');
    });
  });

  describe('price provenance', () => {
    const cx = (raw: Json) => line(raw, 'hetzner', 'cx');
    it('refuses a plan without observedAt, or seen after the release or after its source was read', () => {
      const i = d.planIndex('hetzner', 'CX23');
      expect(problemsAfter((raw) => delete plan(raw, 'hetzner', 'CX23').observedAt)).toEqual([
        `${d.at('hetzner')}.plans[${i}].observedAt: is required`,
      ]);
      expect(problemsAfter((raw) => (plan(raw, 'hetzner', 'CX23').observedAt = dayAfter(raw.meta.version)))).toContain(
        `${d.at('hetzner')}.plans[${i}] (CX23).observedAt: must not be after the dataset version (${d.version}): a release cannot quote a price seen after it`,
      );
      const readBefore = dayBefore(d.version);
      expect(
        problemsAfter(
          (raw) => (
            (cx(raw).source.retrievedAt = readBefore),
            (plan(raw, 'hetzner', 'CX23').observedAt = raw.meta.version)
          ),
        ),
      ).toEqual([
        `${d.at('hetzner')}.plans[${i}] (CX23).observedAt: must not be after the day its line's source was read (${readBefore})`,
      ]);
    });

    it('refuses a line source without a method, a copy without copyOf and copyOf on what is not a copy', () => {
      // Hostinger's line is editorial: read from the provider's own page, no copyOf.
      const cx = (raw: Json) => provider(raw, 'hostinger').planLines[0];
      const at = `${d.at('hostinger')}.planLines[0].source`;
      expect(cx(small as Json).source).toMatchObject({ method: 'editorial' });
      expect(cx(small as Json).source.copyOf).toBeUndefined();
      expect(problemsAfter((raw) => delete cx(raw).source.method)).toEqual([
        `${at}.method: say how the line's prices were read (provider-api, provider-page, copy or editorial)`,
      ]);
      expect(problemsAfter((raw) => (cx(raw).source.method = 'copy'))).toEqual([
        `${at}.copyOf: a copy must name the provider's page or endpoint it copies`,
      ]);
      expect(problemsAfter((raw) => (cx(raw).source.copyOf = 'https://www.hostinger.com/vps-hosting'))).toEqual([
        `${at}.method: a source with copyOf is a copy (method "copy")`,
      ]);
      expect(problemsAfter((raw) => (cx(raw).source.method = 'guessed'))).toEqual([
        `${at}.method: must be one of the following values: provider-api, provider-page, copy, editorial`,
      ]);
    });

    it('refuses a reported price change or a discontinuation dated after the release', () => {
      const at = `${d.at('hetzner')}.planLines[0]`;
      const report = (date: string) => ({
        date,
        note: 'prices rose',
        source: { url: 'https://example.com/news', retrievedAt: date },
      });
      expect(problemsAfter((raw) => (cx(raw).laterPriceChange = report(raw.meta.version)))).toEqual([]);
      expect(problemsAfter((raw) => (cx(raw).laterPriceChange = report(dayAfter(raw.meta.version))))).toEqual([
        `${at}.laterPriceChange.date: must not be after the dataset version (${d.version})`,
        `${at}.laterPriceChange.source.retrievedAt: must not be after the dataset version (${d.version})`,
      ]);
      const gone = (since: string | null) => ({
        since,
        successor: 'Premium',
        source: { url: 'https://example.com/eol', retrievedAt: d.version },
      });
      expect(problemsAfter((raw) => (cx(raw).discontinued = gone(dayAfter(raw.meta.version))))).toContain(
        `${at}.discontinued.since: must not be after the dataset version (${d.version}); a line still sold is not discontinued yet`,
      );
    });

    it("refuses a discontinued plan served as the provider's entry price", () => {
      const edit = (raw: Json) => {
        const p = provider(raw, 'upcloud');
        const cheapestLine = [...p.plans].sort((a: Json, b: Json) => a.price - b.price)[0].line;
        p.planLines.find((l: Json) => l.id === cheapestLine).discontinued = {
          since: null,
          successor: 'Premium',
          source: { url: 'https://example.com/eol', retrievedAt: raw.meta.version },
        };
      };
      const problems = problemsAfter(edit);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(
        /^data\/providers\.json: providers\[\d\] \(upcloud\)\.(startingPrice: must equal the cheapest price of a plan that can be ordered|plans: every plan is in a discontinued line)/,
      );
    });
  });

  describe('prices', () => {
    it('refuses a plan billed in another currency than its provider', () => {
      expect(problemsAfter((raw) => (provider(raw, 'vultr').plans[3].currency = 'EUR'))).toEqual([
        "data/providers.json: providers[2] (vultr).plans[3].currency: must equal the provider's currency (USD)",
      ]);
    });

    it('refuses a startingPrice that is not the cheapest plan', () => {
      const cheapest = Math.min(...provider(small, 'digitalocean').plans.map((p: Json) => p.price));
      expect(problemsAfter((raw) => (provider(raw, 'digitalocean').startingPrice = cheapest + 1))).toEqual([
        `data/providers.json: providers[1] (digitalocean).startingPrice: must equal the cheapest price of a plan that can be ordered (${cheapest}); a discontinued or unorderable plan is never the starting price`,
      ]);
    });

    it('requires a rate for every billing currency and for EUR and USD', () => {
      const withoutRate = (raw: Json, code: string) => {
        delete raw.exchangeRates.rates[code];
        delete raw.exchangeRates.rateDates[code];
        delete raw.exchangeRates.rateSources?.[code];
      };
      expect(problemsAfter((raw) => withoutRate(raw, 'USD'))).toEqual([
        'data/exchange-rates.json: rates: must include USD, a currency plans are billed or compared in',
      ]);
      // No provider bills in GBP until one does.
      expect(problemsAfter((raw) => withoutRate(raw, 'GBP'))).toEqual([]);
      expect(
        problemsAfter((raw) => {
          withoutRate(raw, 'GBP');
          provider(raw, 'contabo').currency = 'GBP';
          for (const p of provider(raw, 'contabo').plans) p.currency = 'GBP';
        }),
      ).toEqual(['data/exchange-rates.json: rates: must include GBP, a currency plans are billed or compared in']);
      expect(
        problemsAfter((raw) => ((provider(raw, 'contabo').plans[0].currency = 'CHF'), withoutRate(raw, 'CHF'))),
      ).toEqual([
        'data/exchange-rates.json: rates: must include CHF, a currency plans are billed or compared in',
        "data/providers.json: providers[5] (contabo).plans[0].currency: must equal the provider's currency (EUR)",
      ]);
    });

    it('requires EUR, the other currency the plan table converts to, even when the base is another', () => {
      expect(
        problemsAfter((raw) => {
          const rates = raw.exchangeRates.rates;
          raw.exchangeRates.base = 'USD';
          raw.exchangeRates.rates = { USD: 1, EUR: 1 / rates.USD };
          raw.exchangeRates.rateDates = { EUR: raw.exchangeRates.date };
          delete raw.exchangeRates.rateSources;
          for (const p of raw.providers.providers) {
            p.currency = 'USD';
            for (const x of p.plans) x.currency = 'USD';
          }
        }),
      ).toEqual([]);
      expect(
        problemsAfter((raw) => {
          raw.exchangeRates.base = 'USD';
          raw.exchangeRates.rates = { USD: 1 };
          delete raw.exchangeRates.rateDates;
          delete raw.exchangeRates.rateSources;
          for (const p of raw.providers.providers) {
            p.currency = 'USD';
            for (const x of p.plans) x.currency = 'USD';
          }
        }),
      ).toEqual(['data/exchange-rates.json: rates: must include EUR, a currency plans are billed or compared in']);
    });

    it('refuses rates whose days do not add up: a rate without its day, a table date that is not the oldest, a copy without the address it copies', () => {
      expect(problemsAfter((raw) => delete raw.exchangeRates.rateDates.AUD)).toEqual([
        'data/exchange-rates.json: rateDates.AUD: must give the day of the rate, YYYY-MM-DD',
      ]);
      expect(problemsAfter((raw) => (raw.exchangeRates.rateDates.XTS = '2026-02-05'))).toEqual([
        'data/exchange-rates.json: rateDates.XTS: no rate of that currency to date',
      ]);
      expect(
        problemsAfter((raw) => {
          for (const code of Object.keys(raw.exchangeRates.rateDates)) raw.exchangeRates.rateDates[code] = '2026-09-28';
        }),
      ).toEqual(['data/exchange-rates.json: date: must be the oldest of rateDates (2026-09-28)']);
      expect(problemsAfter((raw) => delete raw.exchangeRates.rateSources.USD.copyOf)).toEqual([
        "data/exchange-rates.json: rateSources.USD: needs the copy's https url and the https address it copies (copyOf)",
      ]);
      // A table written before rates had their own days dates every rate with `date`.
      expect(
        problemsAfter((raw) => {
          delete raw.exchangeRates.rateDates;
          delete raw.exchangeRates.rateSources;
        }),
      ).toEqual([]);
    });

    it('refuses an exchange-rate table without a real date', () => {
      expect(problemsAfter((raw) => (raw.exchangeRates.date = '2026-13-01'))).toEqual([
        'data/exchange-rates.json: date: must be a real calendar date written YYYY-MM-DD',
      ]);
    });

    it('returns no content without a rate table, a meta file or a VAT file', () => {
      for (const key of ['exchangeRates', 'meta', 'vatRates']) {
        const { content } = resultAfter((raw) => (raw[key] = undefined));
        expect(content).toBeUndefined();
      }
    });
  });

  describe('dates of sources', () => {
    const version = () => d.version;

    it('refuses a provider source read after the release that cites it, and accepts one read on the release day', () => {
      // (The generated guides now quote a figure newer than themselves, too.)
      expect(
        problemsAfter((raw) => (provider(raw, 'hetzner').sources[0].retrievedAt = dayAfter(version()))).filter((p) =>
          p.startsWith('data/providers'),
        ),
      ).toEqual([
        `data/providers.json: providers[0] (hetzner).sources[0].retrievedAt: must not be after the dataset version (${version()}): a page cannot be read after the release that cites it`,
      ]);
      expect(problemsAfter((raw) => (provider(raw, 'hetzner').sources[0].retrievedAt = version()))).toEqual([]);
    });

    it('refuses a plan-line source read after the release, and accepts one read on the release day', () => {
      expect(
        problemsAfter((raw) => (provider(raw, 'hetzner').planLines[1].source.retrievedAt = dayAfter(version()))).filter(
          (p) => p.startsWith('data/providers'),
        ),
      ).toEqual([
        `data/providers.json: providers[0] (hetzner).planLines[1].source.retrievedAt: must not be after the dataset version (${version()})`,
      ]);
      expect(problemsAfter((raw) => (provider(raw, 'hetzner').planLines[1].source.retrievedAt = version()))).toEqual(
        [],
      );
    });

    it('refuses a page date after the day the page was read, and accepts the same day', () => {
      expect(
        problemsAfter((raw) =>
          Object.assign(provider(raw, 'hetzner').sources[0], { retrievedAt: '2026-02-03', pageDate: '2026-02-04' }),
        ),
      ).toEqual([
        'data/providers.json: providers[0] (hetzner).sources[0].pageDate: must not be after retrievedAt (2026-02-03)',
      ]);
      expect(
        problemsAfter((raw) =>
          Object.assign(provider(raw, 'hetzner').sources[0], { retrievedAt: '2026-02-03', pageDate: '2026-02-03' }),
        ),
      ).toEqual([]);
      // A line's source: its page date one day after the day it was read, then that same day.
      const read = provider(small as Json, 'contabo').planLines[0].source.retrievedAt as string;
      expect(
        problemsAfter((raw) =>
          Object.assign(provider(raw, 'contabo').planLines[0].source, { pageDate: dayAfter(read) }),
        ),
      ).toEqual([`${d.at('contabo')}.planLines[0].source.pageDate: must not be after retrievedAt (${read})`]);
      expect(
        problemsAfter((raw) => Object.assign(provider(raw, 'contabo').planLines[0].source, { pageDate: read })),
      ).toEqual([]);
    });

    it('checks no source against the version while meta.json is unusable', () => {
      expect(
        problemsAfter((raw) => {
          provider(raw, 'hetzner').sources[0].retrievedAt = dayAfter(version());
          provider(raw, 'hetzner').planLines[0].source.retrievedAt = dayAfter(version());
          raw.meta.version = 'soon';
        }).filter((p) => p.startsWith('data/providers')),
      ).toEqual([]);
    });
  });

  describe('deprecations', () => {
    const deprecation = (field: string, deprecatedAt: string, sunsetAt: string) => ({
      field,
      deprecatedAt,
      sunsetAt,
      link: LINK,
    });

    it('refuses a sunset less than 180 days after the deprecation, and accepts exactly 180', () => {
      expect(
        problemsAfter((raw) =>
          raw.meta.deprecations.push(deprecation('Provider.affiliateUrl', '2026-01-01', '2026-03-01')),
        ),
      ).toEqual([
        'data/meta.json: deprecations[0] (Provider.affiliateUrl).sunsetAt: must be at least 180 days after deprecatedAt (is 59)',
      ]);
      expect(
        problemsAfter((raw) =>
          raw.meta.deprecations.push(deprecation('Provider.affiliateUrl', '2026-01-01', '2026-06-29')),
        ),
      ).toEqual([
        'data/meta.json: deprecations[0] (Provider.affiliateUrl).sunsetAt: must be at least 180 days after deprecatedAt (is 179)',
      ]);
      expect(
        problemsAfter((raw) =>
          raw.meta.deprecations.push(deprecation('Provider.affiliateUrl', '2026-01-01', '2026-06-30')),
        ),
      ).toEqual([]);
    });

    it('accepts a field of each deprecatable schema and refuses another schema', () => {
      expect(
        problemsAfter((raw) =>
          raw.meta.deprecations.push(
            ...['Provider.a', 'Plan.b', 'UseCase.c', 'Guide.d'].map((f) => deprecation(f, '2026-01-01', '2026-12-01')),
          ),
        ),
      ).toEqual([]);
      expect(
        problemsAfter((raw) => raw.meta.deprecations.push(deprecation('Vendor.name', '2026-01-01', '2026-12-01'))),
      ).toEqual([
        'data/meta.json: deprecations[0] (Vendor.name).field: must name a field of Provider, Plan, UseCase, Guide',
      ]);
    });
  });

  describe('ratings', () => {
    const meanOf = (raw: Json, id: string) => {
      const w = raw.meta.ratingWeights;
      const p = provider(raw, id);
      return Object.keys(w).reduce((sum: number, k: string) => sum + w[k] * p.ratings[k], 0);
    };

    it('refuses an overall rating off the weighted mean of the sub-scores, and accepts one 0.05 away', () => {
      const mean = meanOf(small, 'hetzner');
      const message = `data/providers.json: providers[0] (hetzner).rating: must be the weighted mean of the sub-scores with meta.json's ratingWeights, ${mean.toFixed(2)} (within 0.05)`;
      expect(problemsAfter((raw) => (provider(raw, 'hetzner').rating = Math.round((mean + 0.2) * 10) / 10))).toEqual([
        message,
      ]);
      expect(problemsAfter((raw) => (provider(raw, 'hetzner').rating = Math.round((mean - 0.2) * 10) / 10))).toEqual([
        expect.stringContaining('providers[0] (hetzner).rating: must be the weighted mean'),
      ]);
      // Move the mean itself to exactly 0.05 from the written rating, on both sides: still accepted.
      for (const side of [1, -1]) {
        expect(
          problemsAfter((raw) => {
            const h = provider(raw, 'hetzner');
            const w = raw.meta.ratingWeights;
            h.ratings.performance =
              Math.round(
                (h.ratings.performance + (h.rating + side * 0.05 - meanOf(raw, 'hetzner')) / w.performance) * 1000,
              ) / 1000;
          }).filter((x) => x.includes('.rating:')),
        ).toEqual([]);
      }
    });

    it('accepts a rating exactly 0.05 from the mean, where floating point puts the mean a hair further', () => {
      // With these weights the means are 4.050000000000001 and 3.9499999999999997 (one-decimal sub-scores).
      const weights = { performance: 0.25, value: 0.3, support: 0.15, easeOfUse: 0.15, features: 0.15 };
      const scores = (s: number[]) => Object.fromEntries(Object.keys(weights).map((k, i) => [k, s[i]]));
      for (const s of [
        [4.2, 4.2, 3.7, 3.7, 4.2],
        [3.8, 3.7, 4.1, 4.2, 4.3],
      ]) {
        const edit = (raw: Json) => {
          raw.meta.ratingWeights = weights;
          Object.assign(provider(raw, 'hetzner'), { rating: 4, ratings: scores(s) });
        };
        expect(
          Math.abs(
            4 -
              meanOf(
                { meta: { ratingWeights: weights }, providers: { providers: [{ id: 'x', ratings: scores(s) }] } },
                'x',
              ),
          ),
        ).toBeGreaterThan(0.05);
        expect(problemsAfter(edit).filter((p) => p.includes('(hetzner).rating:'))).toEqual([]);
      }
    });

    it('checks no rating while meta.json is unusable', () => {
      expect(
        problemsAfter((raw) => ((provider(raw, 'hetzner').rating = 1), (raw.meta.version = 'soon'))).filter((p) =>
          p.includes('.rating:'),
        ),
      ).toEqual([]);
    });

    it('refuses rating weights that do not add up to 1, above or below', () => {
      const above = problemsAfter((raw) => (raw.meta.ratingWeights.support += 0.1));
      expect(above[0]).toMatch(/^data\/meta\.json: ratingWeights: must add up to 1 \(they add up to 1\.1\d*\)$/);
      const below = problemsAfter((raw) => (raw.meta.ratingWeights.value = 0.2));
      expect(below[0]).toMatch(/^data\/meta\.json: ratingWeights: must add up to 1 \(they add up to 0\.\d+\)$/);
    });

    it('accepts weights that add up to 1 within rounding', () => {
      const weights = { performance: 0.05, value: 0.05, support: 0.25, easeOfUse: 0.3, features: 0.35 };
      expect(Object.values(weights).reduce((a, b) => a + b, 0)).not.toBe(1);
      expect(
        problemsAfter((raw) => (raw.meta.ratingWeights = weights)).filter((p) => p.startsWith('data/meta.json')),
      ).toEqual([]);
    });
  });

  describe('plan lines and price bases', () => {
    it('refuses a prepaid-term line without its term', () => {
      expect(problemsAfter((raw) => (line(raw, 'hostinger', 'kvm').termMonths = null))).toEqual([
        `${at('hostinger')}.planLines[0].termMonths: a prepaid-term line must say how many months the price needs`,
      ]);
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
        'data/providers.json: providers[0] (hetzner).planLines[0]: no plan belongs to the line "cx"',
        'data/providers.json: providers[0] (hetzner).plans[0] (CX23).line: names no plan line of hetzner ("cz"); lines: cx, cax, cpx, ccx',
      ]);
    });

    it('refuses a line no plan belongs to, and a duplicated line id', () => {
      expect(
        problemsAfter((raw) =>
          provider(raw, 'hostinger').planLines.push({ ...line(raw, 'hostinger', 'kvm'), name: 'Again' }),
        ),
      ).toEqual([`${at('hostinger')}.planLines[1].id: duplicates planLines[0] ("kvm")`]);
      expect(
        problemsAfter((raw) =>
          provider(raw, 'hostinger').planLines.push({ ...line(raw, 'hostinger', 'kvm'), id: 'kvm-gpu' }),
        ),
      ).toEqual([`${at('hostinger')}.planLines[1]: no plan belongs to the line "kvm-gpu"`]);
    });

    it('refuses an incomplete line that does not say what it leaves out', () => {
      expect(problemsAfter((raw) => delete line(raw, 'hetzner', 'cx').notListed)).toEqual([
        'data/providers.json: providers[0] (hetzner).planLines[0].notListed: an incomplete line must say what the dataset leaves out',
      ]);
    });

    it('refuses a promotional price without its renewal price, and accepts null for one that could not be confirmed', () => {
      const where = `${at('hostinger')}.plans[0] (KVM 1)`;
      const price = plan(small, 'hostinger', 'KVM 1').price;
      expect(problemsAfter((raw) => delete plan(raw, 'hostinger', 'KVM 1').renewalPrice)).toEqual([
        `${where}.renewalPrice: a promotional price needs its renewal price (null only when it could not be confirmed)`,
      ]);
      expect(problemsAfter((raw) => (plan(raw, 'hostinger', 'KVM 1').renewalPrice = null))).toEqual([]);
      expect(problemsAfter((raw) => (plan(raw, 'hostinger', 'KVM 1').renewalPrice = price - 0.01))).toEqual([
        `${where}.renewalPrice: must not be below the headline price (${price})`,
      ]);
      expect(problemsAfter((raw) => (plan(raw, 'hostinger', 'KVM 1').renewalPrice = price))).toEqual([]);
    });

    it('refuses a month-to-month price below the headline price, and accepts an equal one', () => {
      const name = 'Cloud VDS S';
      const where = `${at('contabo')}.plans[${d.planIndex('contabo', name)}] (${name})`;
      const price = plan(small, 'contabo', name).price;
      expect(problemsAfter((raw) => (plan(raw, 'contabo', name).monthToMonthPrice = price - 0.01))).toEqual([
        `${where}.monthToMonthPrice: must not be below the headline price (${price})`,
      ]);
      expect(problemsAfter((raw) => (plan(raw, 'contabo', name).monthToMonthPrice = price))).toEqual([]);
    });

    it('refuses a renewal price on a plan whose price is not promotional', () => {
      expect(
        problemsAfter((raw) => (plan(raw, 'hetzner', 'CX23').renewalPrice = plan(raw, 'hetzner', 'CX23').price + 1)),
      ).toEqual([
        'data/providers.json: providers[0] (hetzner).plans[0] (CX23).renewalPrice: only plans of a promotional line have a renewal price',
      ]);
    });

    it('refuses a prepaid plan sold month to month without that price, one on a line not sold month to month with it, and one on a line that has no term', () => {
      const name = 'Cloud VDS S';
      const where = `${at('contabo')}.plans[${d.planIndex('contabo', name)}] (${name})`;
      expect(problemsAfter((raw) => delete plan(raw, 'contabo', name).monthToMonthPrice)).toEqual([
        `${where}.monthToMonthPrice: a prepaid plan also sold month to month needs that price (null only when it could not be confirmed)`,
      ]);
      expect(problemsAfter((raw) => (line(raw, 'contabo', 'cloud-vds').monthToMonthSold = false))).toEqual([
        `${where}.monthToMonthPrice: only plans of a prepaid-term line sold month to month carry a separate month-to-month price`,
      ]);
      expect(
        problemsAfter(
          (raw) => (
            (line(raw, 'contabo', 'cloud-vds').monthToMonthSold = false),
            delete plan(raw, 'contabo', name).monthToMonthPrice
          ),
        ),
      ).toEqual([]);
      expect(
        problemsAfter(
          (raw) => (plan(raw, 'hetzner', 'CX23').monthToMonthPrice = plan(raw, 'hetzner', 'CX23').price + 1),
        ),
      ).toEqual([
        'data/providers.json: providers[0] (hetzner).plans[0] (CX23).monthToMonthPrice: only plans of a prepaid-term line sold month to month carry a separate month-to-month price',
      ]);
    });

    it('compares no prices of use cases while a plan line is unsound', () => {
      expect(
        problemsAfter((raw) => {
          line(raw, 'hetzner', 'cx').termMonths = 12;
          useCase(raw, 'wordpress').minimumSpec.vcpus = 999;
        }),
      ).toEqual([
        'data/providers.json: providers[0] (hetzner).planLines[0].termMonths: must be null unless priceBasis is prepaid-term',
      ]);
      expect(
        problemsAfter((raw) => {
          provider(raw, 'hetzner').rating = 'high';
          useCase(raw, 'wordpress').minimumSpec.vcpus = 999;
        }),
      ).toEqual(['data/providers.json: providers[0] (hetzner).rating: must be a number']);
    });
  });

  describe('use-case sizing', () => {
    /** The problems about the entry price only (a spec nobody sells also refuses every pick, tested below). */
    const entryProblems = (problems: string[]) => problems.filter((p) => p.includes('.minimumSpec:'));

    it('refuses a minimum spec no plan sold without commitment meets', () => {
      const problems = problemsAfter((raw) => (useCase(raw, 'wordpress').minimumSpec.vcpus = 999));
      expect(entryProblems(problems)).toEqual([
        'data/use-cases.json: useCases[0] (wordpress).minimumSpec: no plan sold without commitment meets it, so there is no entry price',
      ]);
      expect(problems.filter((p) => p.includes('.recommendedProviders[')).length).toBe(
        useCase(small, 'wordpress').recommendedProviders.length,
      );
    });

    it('matches transfer as the fourth part of a spec: a stated volume up to it, unmetered always, an unstated allowance never', () => {
      const onlyPlanWith = (raw: Json, bandwidth: string) => {
        const target = plan(raw, 'hetzner', 'CX23');
        target.bandwidth = bandwidth;
        target.ram = '900GB';
        useCase(raw, 'wordpress').minimumSpec.ramGb = 900;
        useCase(raw, 'wordpress').minimumSpec.bandwidthTb = 3;
      };
      const refused =
        'data/use-cases.json: useCases[0] (wordpress).minimumSpec: no plan sold without commitment meets it, so there is no entry price';
      expect(entryProblems(problemsAfter((raw) => onlyPlanWith(raw, '3TB')))).toEqual([]);
      expect(entryProblems(problemsAfter((raw) => onlyPlanWith(raw, 'Unmetered (1 Gbit/s)')))).toEqual([]);
      expect(entryProblems(problemsAfter((raw) => onlyPlanWith(raw, 'Unmetered (fair use)')))).toEqual([]);
      expect(entryProblems(problemsAfter((raw) => onlyPlanWith(raw, '2TB')))).toEqual([refused]);
      expect(entryProblems(problemsAfter((raw) => onlyPlanWith(raw, 'Fair-use allowance')))).toEqual([refused]);
    });

    it('refuses a pick none of whose plans still sold meets the minimum spec, and says which part is missing', () => {
      const picks = useCase(small, 'wordpress').recommendedProviders.map((r: Json) => r.id) as string[];
      const j = picks.indexOf('hetzner');
      const where = `data/use-cases.json: useCases[0] (wordpress).recommendedProviders[${j}] (hetzner)`;
      const need = useCase(small, 'wordpress').minimumSpec.bandwidthTb;
      const throttled = (raw: Json) => {
        for (const x of provider(raw, 'hetzner').plans) x.bandwidth = `${need / 2}TB`;
      };
      expect(problemsAfter(throttled)).toContain(
        `${where}: no plan of it still sold meets the minimum spec (transfer: at most ${need / 2} TB, needs ${need} TB), so it cannot be bought for this use case; recommend a provider that sells such a plan`,
      );
      expect(
        problemsAfter(throttled).every((p) => /recommendedProviders\[\d+\] \(hetzner\): .*\(transfer: /.test(p)),
      ).toBe(true);
      const unstated = (raw: Json) => {
        for (const x of provider(raw, 'hetzner').plans) x.bandwidth = 'Fair-use allowance';
      };
      expect(problemsAfter(unstated)).toContain(
        `${where}: no plan of it still sold meets the minimum spec (transfer: no plan states its allowance as a volume or as unmetered, needs ${need} TB), so it cannot be bought for this use case; recommend a provider that sells such a plan`,
      );
      // Plans of a discontinued line do not count: only the CX line is still sold here, and its plans are too small.
      const onlyCxSold = (raw: Json) => {
        for (const l of provider(raw, 'hetzner').planLines) {
          if (l.id !== 'cx')
            l.discontinued = {
              since: null,
              successor: 'CX',
              source: { url: 'https://example.com/retired', retrievedAt: raw.meta.version },
            };
        }
        for (const x of provider(raw, 'hetzner').plans) if (x.line === 'cx') x.ram = '512MB';
        useCase(raw, 'wordpress').minimumSpec.ramGb = 1;
      };
      expect(problemsAfter(onlyCxSold)).toContain(
        `${where}: no plan of it still sold meets the minimum spec (RAM: at most 0.5 GB, needs 1 GB), so it cannot be bought for this use case; recommend a provider that sells such a plan`,
      );
    });

    it('prices the entry only from plans sold without commitment: a prepaid plan counts with a month-to-month price, not without', () => {
      const onlyThisPlanMeetsIt = (raw: Json, id: string, name: string) => {
        plan(raw, id, name).ram = '900GB';
        useCase(raw, 'wordpress').minimumSpec.ramGb = 900;
      };
      expect(plan(small, 'hostinger', 'KVM 1').monthToMonthPrice).toBeNull();
      expect(entryProblems(problemsAfter((raw) => onlyThisPlanMeetsIt(raw, 'hostinger', 'KVM 1')))).toEqual([
        'data/use-cases.json: useCases[0] (wordpress).minimumSpec: no plan sold without commitment meets it, so there is no entry price',
      ]);
      expect(
        entryProblems(
          problemsAfter((raw) => {
            onlyThisPlanMeetsIt(raw, 'contabo', 'Cloud VDS S');
            plan(raw, 'contabo', 'Cloud VDS S').monthToMonthPrice = null;
          }),
        ),
      ).toHaveLength(1);
      expect(
        entryProblems(
          problemsAfter((raw) => {
            onlyThisPlanMeetsIt(raw, 'contabo', 'Cloud VDS S');
            plan(raw, 'contabo', 'Cloud VDS S').monthToMonthPrice = plan(raw, 'contabo', 'Cloud VDS S').price + 10;
          }),
        ),
      ).toEqual([]);
      expect(entryProblems(problemsAfter((raw) => onlyThisPlanMeetsIt(raw, 'hetzner', 'CX23')))).toEqual([]);
    });

    it('meets the recommended spec only with a plan of a recommended provider', () => {
      const recommended = (raw: Json) =>
        useCase(raw, 'wordpress').recommendedProviders.map((r: Json) => r.id) as string[];
      const outsider = (raw: Json) => raw.providers.providers.find((p: Json) => !recommended(raw).includes(p.id));
      const onlyPlanOf = (raw: Json, p: Json) => {
        p.plans[0].ram = '900GB';
        useCase(raw, 'wordpress').recommendedSpec.ramGb = 900;
      };
      expect(problemsAfter((raw) => onlyPlanOf(raw, outsider(raw)))).toEqual([
        'data/use-cases.json: useCases[0] (wordpress).recommendedSpec: no plan of a recommended provider meets it; lower it, recommend a provider that sells it, or say how it is reached in recommendedSpecNote',
      ]);
      expect(problemsAfter((raw) => onlyPlanOf(raw, provider(raw, recommended(raw)[1])))).toEqual([]);
    });

    describe("a pick's reason and the plan it shows", () => {
      const where = (raw: Json) => {
        const j = useCase(raw, 'wordpress').recommendedProviders.findIndex((r: Json) => r.id === 'hetzner');
        return `data/use-cases.json: useCases[0] (wordpress).recommendedProviders[${j}] (hetzner).reason`;
      };
      const claimDedicatedNvme = (raw: Json) => {
        useCase(raw, 'wordpress').recommendedProviders.find((r: Json) => r.id === 'hetzner').reason =
          'Dedicated vCPU plans with local NVMe keep the site fast.';
      };
      const dedicatedPlans = (raw: Json) =>
        provider(raw, 'hetzner').plans.filter((x: Json) => x.cpuType === 'dedicated');

      it('accepts a reason claiming dedicated vCPUs and NVMe when such a plan of the pick meets the minimum spec', () => {
        expect(dedicatedPlans(small).length).toBeGreaterThan(0);
        expect(problemsAfter(claimDedicatedNvme)).toEqual([]);
      });

      it('refuses a reason claiming what no plan of the pick that meets the minimum spec has, naming the claim and what is missing', () => {
        const need = useCase(small, 'wordpress').minimumSpec.storageGb;
        expect(
          problemsAfter((raw) => {
            claimDedicatedNvme(raw);
            for (const x of dedicatedPlans(raw)) x.storage = `${need / 2}GB NVMe`;
          }),
        ).toEqual([
          `${where(small)}: it claims dedicated vCPUs and an NVMe disk, but no plan of it still sold with dedicated vCPUs and an NVMe disk meets the minimum spec (disk: at most ${need / 2} GB, needs ${need} GB), so the pick would show a plan the reason does not describe; reword the reason or recommend a provider that sells such a plan`,
        ]);
        expect(
          problemsAfter((raw) => {
            claimDedicatedNvme(raw);
            for (const x of dedicatedPlans(raw)) x.storage = x.storage.replace('NVMe', 'SSD');
          }),
        ).toEqual([
          `${where(small)}: it claims dedicated vCPUs and an NVMe disk, but no plan of it still sold with dedicated vCPUs and an NVMe disk meets the minimum spec (it sells no such plan), so the pick would show a plan the reason does not describe; reword the reason or recommend a provider that sells such a plan`,
        ]);
      });

      it('accepts a reason that names both CPU kinds: it offers both and claims neither', () => {
        expect(
          problemsAfter((raw) => {
            useCase(raw, 'wordpress').recommendedProviders.find((r: Json) => r.id === 'hetzner').reason =
              'Shared vCPU plans for a start, dedicated vCPU plans when it grows.';
            for (const x of dedicatedPlans(raw)) x.storage = '1GB NVMe';
          }),
        ).toEqual([]);
      });

      it("meets the recommended spec only with a plan the pick's reason describes", () => {
        const onlyDedicatedPlanReachesIt = (raw: Json) => {
          useCase(raw, 'wordpress').recommendedSpec.ramGb = 900;
          dedicatedPlans(raw)[0].ram = '900GB';
        };
        expect(
          reasonClaims(useCase(small, 'wordpress').recommendedProviders.find((r: Json) => r.id === 'hetzner').reason),
        ).toEqual({ cpuType: 'shared' });
        expect(problemsAfter(onlyDedicatedPlanReachesIt)).toEqual([
          'data/use-cases.json: useCases[0] (wordpress).recommendedSpec: no plan of a recommended provider meets it; lower it, recommend a provider that sells it, or say how it is reached in recommendedSpecNote',
        ]);
        expect(
          problemsAfter((raw) => {
            onlyDedicatedPlanReachesIt(raw);
            claimDedicatedNvme(raw);
          }),
        ).toEqual([]);
      });
    });

    it('refuses a recommended spec no recommended provider sells, unless a note says how to reach it, and a note that explains nothing', () => {
      expect(problemsAfter((raw) => (useCase(raw, 'wordpress').recommendedSpec.storageGb = 100000))).toEqual([
        'data/use-cases.json: useCases[0] (wordpress).recommendedSpec: no plan of a recommended provider meets it; lower it, recommend a provider that sells it, or say how it is reached in recommendedSpecNote',
      ]);
      expect(
        problemsAfter((raw) => Object.assign(useCase(raw, 'wordpress'), { recommendedSpecNote: 'Attach a volume.' })),
      ).toEqual([
        "data/use-cases.json: useCases[0] (wordpress).recommendedSpecNote: a recommended provider's plan meets the recommended spec, so there is nothing to explain",
      ]);
      expect(problemsAfter((raw) => delete useCase(raw, 'seedbox').recommendedSpecNote)).toEqual([
        'data/use-cases.json: useCases[2] (seedbox).recommendedSpec: no plan of a recommended provider meets it; lower it, recommend a provider that sells it, or say how it is reached in recommendedSpecNote',
      ]);
    });
  });

  describe('guides', () => {
    it('refuses guide slugs that are not URL-safe, and one that differs from its file name', () => {
      expect(problemsAfter((raw) => (guide(raw, 'hetzner-review').slug = 'Hetzner Review'))).toEqual([
        'data/guides/hetzner-review.md: front matter.slug: must be a lowercase slug (a-z, 0-9, single hyphens)',
      ]);
      expect(problemsAfter((raw) => (guide(raw, 'hetzner-review').slug = 'hetzner-review-2'))).toEqual([
        'data/guides/hetzner-review.md: front matter.slug: must equal the file name (hetzner-review)',
      ]);
    });

    it('refuses a guide type outside the declared list', () => {
      expect(problemsAfter((raw) => (guide(raw, 'install-docker').type = 'howto'))).toEqual([
        'data/guides/install-docker.md: front matter.type: must be one of review, comparison, workload, best-of, alternatives, tutorial',
      ]);
    });

    it('refuses a guide published after the dataset version, and accepts one published on its day', () => {
      // Without a review or update date, which must not be before publication either (below).
      const unreviewed = (raw: Json) =>
        Object.assign(guide(raw, 'install-docker'), {
          verifiedWith: undefined,
          writtenFor: undefined,
          reviewed: undefined,
          updated: undefined,
        });
      expect(problemsAfter((raw) => (unreviewed(raw).published = dayAfter(d.version)))).toEqual([
        `data/guides/install-docker.md: front matter.published: must not be after the dataset version (${d.version})`,
      ]);
      expect(problemsAfter((raw) => (unreviewed(raw).published = d.version))).toEqual([]);
    });

    it('refuses an update before publication or after the release, and accepts both on their day', () => {
      expect(
        problemsAfter((raw) =>
          Object.assign(guide(raw, 'install-docker'), { published: '2026-01-10', updated: '2026-01-09' }),
        ),
      ).toEqual(['data/guides/install-docker.md: front matter.updated: must not be before published (2026-01-10)']);
      expect(
        problemsAfter((raw) =>
          Object.assign(guide(raw, 'install-docker'), { published: '2026-01-10', updated: '2026-01-10' }),
        ),
      ).toEqual([]);
      expect(problemsAfter((raw) => (guide(raw, 'install-docker').updated = dayAfter(d.version)))).toEqual([
        `data/guides/install-docker.md: front matter.updated: must not be after the dataset version (${d.version})`,
      ]);
      expect(problemsAfter((raw) => (guide(raw, 'install-docker').updated = d.version))).toEqual([]);
    });

    it('checks no guide date against the version while meta.json is unusable', () => {
      expect(
        problemsAfter(
          (raw) => ((guide(raw, 'install-docker').updated = '2099-01-01'), (raw.meta.version = 'soon')),
        ).filter((p) => p.includes('guides')),
      ).toEqual([]);
      expect(
        problemsAfter(
          (raw) => (
            Object.assign(guide(raw, 'install-docker'), {
              published: '2099-01-01',
              verifiedWith: undefined,
              writtenFor: undefined,
              reviewed: undefined,
              updated: undefined,
            }),
            (raw.meta.version = 'soon')
          ),
        ).filter((p) => p.includes('guides')),
      ).toEqual([]);
    });

    it('accepts a tutorial with verifiedWith, writtenFor and reviewed, and refuses each malformed form', () => {
      const checked = (fm: Json) =>
        problemsAfter((raw) =>
          Object.assign(
            guide(raw, 'install-docker'),
            { published: '2026-01-10', verifiedWith: undefined, writtenFor: undefined, reviewed: undefined },
            fm,
          ),
        );
      expect(
        checked({
          verifiedWith: {
            debian: '13',
            'docker-engine': '29.1',
            nodejs: '22.x',
            traefik: 'v3.6.1',
            'actions/checkout': 'v5',
            debian2: '12, 13',
          },
          writtenFor: { postgresql: '16', 'docker-engine': '29' },
          reviewed: '2026-01-10',
        }),
      ).toEqual([]);
      const at = 'data/guides/install-docker.md: front matter';
      const shapeOf = (field: string) =>
        `${at}.${field}: must map each software name (lowercase: a-z, 0-9, . _ / -) to its version, as a quoted string ("12", "24.04", "3.6.1", or several: "12, 13")`;
      const shape = shapeOf('verifiedWith');
      // An unquoted 22.10 in YAML is the number 22.1: the version must be a string.
      expect(checked({ verifiedWith: { ubuntu: 22.1 }, reviewed: '2026-01-10' })).toEqual([shape]);
      expect(checked({ verifiedWith: { Debian: '12' }, reviewed: '2026-01-10' })).toEqual([shape]);
      expect(checked({ verifiedWith: { debian: 'bookworm' }, reviewed: '2026-01-10' })).toEqual([shape]);
      expect(checked({ verifiedWith: {}, reviewed: '2026-01-10' })).toEqual([shape]);
      expect(checked({ verifiedWith: ['debian'], reviewed: '2026-01-10' })).toEqual([shape]);
      expect(checked({ writtenFor: { postgresql: 16 }, reviewed: '2026-01-10' })).toEqual([shapeOf('writtenFor')]);
      expect(checked({ writtenFor: { PostgreSQL: '16' }, reviewed: '2026-01-10' })).toEqual([shapeOf('writtenFor')]);
      expect(checked({ verifiedWith: { debian: '13' } })).toEqual([
        `${at}.reviewed: is required with verifiedWith (the day the versions were read)`,
      ]);
      expect(checked({ writtenFor: { postgresql: '16' } })).toEqual([
        `${at}.reviewed: is required with writtenFor (the day the versions were read)`,
      ]);
      expect(checked({ reviewed: '2026-02-30' })).toEqual([
        `${at}.reviewed: must be a real calendar date written YYYY-MM-DD`,
      ]);
    });

    it('refuses a review day before publication or after the day of the check, and accepts one after the release', () => {
      // A check that ran between releases dates its review on its own day, after the dataset version.
      const today = dayAfter(dayAfter(d.version));
      const reviewedOn = (reviewed: string) =>
        problemsAfter(
          (raw) =>
            Object.assign(guide(raw, 'install-docker'), {
              published: '2026-01-10',
              verifiedWith: { debian: '13' },
              reviewed,
            }),
          today,
        );
      expect(reviewedOn('2026-01-09')).toEqual([
        'data/guides/install-docker.md: front matter.reviewed: must not be before published (2026-01-10)',
      ]);
      expect(reviewedOn('2026-01-10')).toEqual([]);
      expect(reviewedOn(d.version)).toEqual([]);
      expect(reviewedOn(dayAfter(d.version))).toEqual([]);
      expect(reviewedOn(today)).toEqual([]);
      expect(reviewedOn(dayAfter(today))).toEqual([
        `data/guides/install-docker.md: front matter.reviewed: must not be after today (${today}): no check has read the tutorial yet`,
      ]);
      // The service (no day given) does not hold the data to its own clock.
      expect(problemsAfter((raw) => Object.assign(guide(raw, 'install-docker'), { reviewed: '2099-01-01' }))).toEqual(
        [],
      );
    });

    it('refuses verifiedWith, writtenFor and reviewed on a guide that is not a tutorial', () => {
      expect(
        problemsAfter((raw) =>
          Object.assign(guide(raw, 'hetzner-review'), {
            verifiedWith: { debian: '13' },
            writtenFor: { postgresql: '16' },
            reviewed: d.version,
          }),
        ),
      ).toEqual([
        'data/guides/hetzner-review.md: front matter.verifiedWith: only a tutorial states the systems and software versions it was checked against',
        'data/guides/hetzner-review.md: front matter.writtenFor: only a tutorial states the systems and software versions it was checked against',
        'data/guides/hetzner-review.md: front matter.reviewed: only a tutorial states the systems and software versions it was checked against',
      ]);
    });

    /** Gives the fixture's Hetzner review another slug and type (file name and slug agree), and returns its front matter. */
    const reslug = (raw: Json, slug: string, type: string) => {
      const g = raw.guides.find((x: Json) => x.fileSlug === 'hetzner-review');
      Object.assign(g, { fileSlug: slug, file: g.file.replace('hetzner-review', slug) });
      return Object.assign(g.frontMatter, { slug, type });
    };

    it('refuses a review, comparison or alternatives guide dated before the newest figure of the providers it is about, and accepts one dated on that day', () => {
      const figures = d.version; // Hetzner's prices in the fixture were read on the release day
      for (const [slug, type] of [
        ['hetzner-review', 'review'],
        ['hostinger-vs-hetzner', 'comparison'],
        ['hetzner-alternatives', 'alternatives'],
      ]) {
        expect(problemsAfter((raw) => Object.assign(reslug(raw, slug, type), { updated: dayBefore(figures) }))).toEqual(
          [
            `data/guides/${slug}.md: front matter.updated: a ${type} guide quotes the dataset's figures, so it must be dated no earlier than the newest of them (${figures}); regenerate it`,
          ],
        );
        expect(problemsAfter((raw) => Object.assign(reslug(raw, slug, type), { updated: figures }))).toEqual([]);
      }
      // Without an update, the publication date counts.
      expect(
        problemsAfter((raw) => Object.assign(guide(raw, 'hetzner-review'), { published: figures, updated: undefined })),
      ).toEqual([]);
      expect(
        problemsAfter((raw) =>
          Object.assign(guide(raw, 'hetzner-review'), { published: dayBefore(figures), updated: undefined }),
        ),
      ).toEqual([expect.stringContaining('hetzner-review.md: front matter.updated: a review guide quotes')]);
      // A best-of list's figures depend on criteria only the generator reads (the regeneration test checks its date);
      // hand-written guides quote no figures.
      for (const type of ['best-of', 'tutorial', 'workload']) {
        const systems = type === 'tutorial' ? { systems: ['debian-13'] } : {};
        expect(
          problemsAfter((raw) =>
            Object.assign(guide(raw, 'hetzner-review'), { type, updated: '2026-02-01', ...systems }),
          ),
        ).toEqual([]);
      }
    });

    it('dates a guide by the sources of the providers it is about: their plan lines and record pages, and the rates when it converts', () => {
      const backdate = (raw: Json) => {
        for (const p of raw.providers.providers) {
          for (const s of p.sources) s.retrievedAt = '2026-01-01';
          for (const l of p.planLines)
            for (const s of [l.source, l.discontinued?.source, l.laterPriceChange?.source])
              if (s) s.retrievedAt = '2026-01-01';
        }
        raw.exchangeRates.date = '2026-01-01';
        for (const code of Object.keys(raw.exchangeRates.rateDates)) raw.exchangeRates.rateDates[code] = '2026-01-01';
        Object.assign(guide(raw, 'hetzner-review'), { published: '2026-01-01', updated: '2026-01-02' });
      };
      const refusal = (date: string) => [
        `data/guides/hetzner-review.md: front matter.updated: a review guide quotes the dataset's figures, so it must be dated no earlier than the newest of them (${date}); regenerate it`,
      ];
      const others = (problems: string[]) => problems.filter((p) => p.includes('hetzner-review'));
      const hetznerPage = (raw: Json, url: string) =>
        provider(raw, 'hetzner').sources.find((s: Json) => s.url.includes(url));
      expect(others(problemsAfter(backdate))).toEqual([]);
      expect(
        others(
          problemsAfter(
            (raw) => (backdate(raw), (provider(raw, 'hetzner').planLines[1].source.retrievedAt = '2026-01-03')),
          ),
        ),
      ).toEqual(refusal('2026-01-03'));
      expect(
        others(problemsAfter((raw) => (backdate(raw), (hetznerPage(raw, 'support').retrievedAt = '2026-01-04')))),
      ).toEqual(refusal('2026-01-04'));
      // The guide converts euros into dollars: the dollar's rate dates it, a rate it does not use does not.
      expect(others(problemsAfter((raw) => (backdate(raw), (raw.exchangeRates.rateDates.USD = '2026-01-05'))))).toEqual(
        refusal('2026-01-05'),
      );
      expect(others(problemsAfter((raw) => (backdate(raw), (raw.exchangeRates.rateDates.AUD = '2026-01-05'))))).toEqual(
        [],
      );
      // Other providers' sources do not date it.
      expect(
        others(
          problemsAfter((raw) => (backdate(raw), (provider(raw, 'upcloud').sources[1].retrievedAt = '2026-01-03'))),
        ),
      ).toEqual([]);
      expect(
        others(
          problemsAfter(
            (raw) => (backdate(raw), (provider(raw, 'vultr').planLines[2].source.retrievedAt = '2026-01-04')),
          ),
        ),
      ).toEqual([]);
    });

    it('checks no guide against the figures while the rates or a provider are unusable', () => {
      const early = (raw: Json) =>
        Object.assign(guide(raw, 'hetzner-review'), { published: '2026-01-01', updated: '2026-01-02' });
      expect(problemsAfter((raw) => (early(raw), (raw.exchangeRates = undefined)))).toEqual([]);
      expect(problemsAfter((raw) => (early(raw), (provider(raw, 'vultr').rating = 'high')))).toEqual([
        'data/providers.json: providers[2] (vultr).rating: must be a number',
      ]);
    });

    it('refuses a guide with an empty body', () => {
      expect(problemsAfter((raw) => (raw.guides[1].body = ' \n\n '))).toEqual([
        'data/guides/install-docker.md: body: must not be empty',
      ]);
    });

    it('leaves out an invalid guide and keeps the others', () => {
      const { content, problems } = resultAfter(
        (raw) => ((raw.guides[1].frontMatter = 'none'), (raw.meta.version = 'soon')),
      );
      expect(problems).toContain('data/guides/install-docker.md: front matter: must be an object');
      expect(content).toBeUndefined();
    });

    it('serves each guide with its trimmed markdown, word count and read time', () => {
      const words = Array.from({ length: 460 }, (_, i) => `word${i}`).join(' ');
      const { content } = resultAfter((raw) => (raw.guides[1].body = `\n\n# Title\n\n${words}\n\n\n`));
      const docker = content!.guides.find((g) => g.slug === 'install-docker')!;
      expect(docker.markdown).toBe(`# Title\n\n${words}\n`);
      expect(docker.wordCount).toBe(461);
      expect(docker.readTimeMinutes).toBe(2);
      expect(docker.title).toBe(guide(small, 'install-docker').title);
    });

    it('lists guides newest first, and by slug within a day', () => {
      const { content } = resultAfter((raw) => {
        for (const g of raw.guides) g.frontMatter.published = '2025-01-01';
        guide(raw, 'install-docker').published = '2025-06-01';
        guide(raw, 'contabo-review').published = '2024-06-01';
      });
      const rest = (small as Json).guides
        .map((g: Json) => g.fileSlug)
        .filter((s: string) => s !== 'install-docker' && s !== 'contabo-review')
        .sort();
      expect(content!.guides.map((g) => g.slug)).toEqual(['install-docker', ...rest, 'contabo-review']);
    });
  });

  describe('releases', () => {
    const release = (raw: Json, version: string) => ({
      ...structuredClone(raw.changelog.releases[0]),
      version,
      date: version,
    });

    it('refuses a release older than the one before it, and accepts one in order', () => {
      const next = (small as Json).changelog.releases.length;
      expect(problemsAfter((raw) => raw.changelog.releases.push(release(raw, '2026-01-01')))).toEqual([
        `data/changelog.json: releases[${next}].version: must be later than the release before it (${d.version})`,
      ]);
      expect(problemsAfter((raw) => raw.changelog.releases.unshift(release(raw, '2026-01-01')))).toEqual([]);
    });

    it('refuses a release that repeats the version before it, once, as a repeated id', () => {
      // The list check refuses the second record before the order check sees it, so a repeated
      // version gets one problem, not two.
      const next = (small as Json).changelog.releases.length;
      expect(problemsAfter((raw) => raw.changelog.releases.push(release(raw, d.version)))).toEqual([
        `data/changelog.json: releases[${next}] (${d.version}): duplicates the id of releases[${next - 1}]`,
      ]);
    });

    it('refuses a release after the dataset version, and accepts one on its day', () => {
      const next = (small as Json).changelog.releases.length;
      expect(problemsAfter((raw) => raw.changelog.releases.push(release(raw, dayAfter(d.version))))).toEqual([
        `data/changelog.json: releases[${next}].version: must not be after the dataset version (${d.version})`,
      ]);
      expect(
        problemsAfter(
          (raw) => ((raw.changelog.releases.at(-1).version = dayAfter(d.version)), (raw.meta.version = 'soon')),
        ).filter((p) => p.includes('changelog')),
      ).toEqual([]);
    });

    it('accepts a dataset without a changelog', () => {
      const { content, problems } = resultAfter((raw) => (raw.changelog = undefined));
      expect(problems).toEqual([]);
      expect(content?.changelog).toEqual([]);
    });
  });

  describe('VAT rates', () => {
    it('refuses a rate record that is invalid, and checks the countries only when every rate is valid', () => {
      expect(problemsAfter((raw) => (raw.vatRates.rates.DE.standardRate = 190))).toEqual([
        'data/vat-rates.json: rates.DE.standardRate: must not be greater than 100',
      ]);
      expect(
        problemsAfter((raw) => ((raw.vatRates.rates.DE.standardRate = 190), delete raw.vatRates.rates.HU)),
      ).toEqual(['data/vat-rates.json: rates.DE.standardRate: must not be greater than 100']);
      const { content } = resultAfter((raw) => delete raw.vatRates.rates.HU);
      expect(content).toBeUndefined();
    });

    it('refuses a VAT file that is not a record', () => {
      expect(problemsAfter((raw) => (raw.vatRates = []))).toEqual(['data/vat-rates.json: the file: must be an object']);
    });
  });
});
