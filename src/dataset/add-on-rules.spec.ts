import { resolve } from 'node:path';
import { readDatasetFiles, type RawDataset } from './dataset-files.js';
import { validateDataset } from './dataset-validator.js';
import {
  datasetEditor,
  line,
  provider,
  readEmbeddedDataset,
  smallDataset,
  type Json,
} from '../../test/support/dataset-fixture.js';

/** One refusing fixture per rule on add-ons, tax, line locations and VAT rates, on the small fixture dataset. */
describe('add-on, tax, location and VAT rules', () => {
  let small: RawDataset;
  let d: ReturnType<typeof datasetEditor>;

  beforeAll(async () => {
    small = smallDataset(await readEmbeddedDataset());
    d = datasetEditor(small);
  });
  const problemsAfter = (edit: (raw: Json) => void) => d.problemsAfter(edit);

  it('accepts the add-ons, tax, line locations and VAT rates of the fixture', () => {
    const { content, problems } = validateDataset(small);
    expect(problems).toEqual([]);
    expect(Object.keys(content!.vatRates)).toHaveLength(28);
  });

  it('refuses a line sold in a city the provider has no data centre in', () => {
    expect(problemsAfter((raw) => line(raw, 'hetzner', 'cx').datacenters.push('Berlin'))).toEqual([
      expect.stringMatching(
        /^data\/providers\.json: providers\[0\] \(hetzner\)\.planLines\[0\] \(cx\)\.datacenters\[3\]: names no data centre of the provider \("Berlin"\); cities of hetzner: Falkenstein, /,
      ),
    ]);
  });

  it('refuses a regional price in a city where the line is not sold', () => {
    expect(
      problemsAfter(
        (raw) =>
          (line(raw, 'hetzner', 'cx').regionalPrices = [
            { datacenters: ['Ashburn'], priceFactor: null, note: 'US prices differ.' },
          ]),
      ),
    ).toEqual([
      'data/providers.json: providers[0] (hetzner).planLines[0] (cx).regionalPrices[0].datacenters[0]: the line is not sold in Ashburn (see its datacenters)',
    ]);
  });

  it('refuses a regional price in a city the provider does not have', () => {
    expect(
      problemsAfter((raw) => (line(raw, 'vultr', 'regular').regionalPrices[0].datacenters = ['Sao Paulo'])),
    ).toEqual([
      expect.stringContaining(
        'providers[2] (vultr).planLines[0] (regular).regionalPrices[0].datacenters[0]: names no data centre of the provider ("Sao Paulo")',
      ),
    ]);
  });

  it('refuses an unknown add-on status without a reason', () => {
    expect(problemsAfter((raw) => delete provider(raw, 'vultr').addOns.ipv4.unknownReason)).toEqual([
      'data/providers.json: providers[2] (vultr).addOns.ipv4.unknownReason: required when the status is unknown',
    ]);
  });

  it('refuses a known add-on status without a source', () => {
    expect(problemsAfter((raw) => delete provider(raw, 'digitalocean').addOns.snapshots.source)).toEqual([
      'data/providers.json: providers[1] (digitalocean).addOns.snapshots.source: a known status needs the page it was read on',
    ]);
  });

  it('refuses paid backups with no price and no reason', () => {
    expect(problemsAfter((raw) => (provider(raw, 'vultr').addOns.backups.percentOfPlanPrice = null))).toEqual([
      'data/providers.json: providers[2] (vultr).addOns.backups.unknownReason: required when paid backups have no price',
    ]);
  });

  it('refuses a paid IPv4 address with no price and no reason', () => {
    expect(problemsAfter((raw) => (provider(raw, 'digitalocean').addOns.ipv4.status = 'paid'))).toEqual([
      'data/providers.json: providers[1] (digitalocean).addOns.ipv4.unknownReason: required when a paid address has no price',
    ]);
  });

  it('refuses paid snapshots with no price per GB and no reason', () => {
    expect(problemsAfter((raw) => (provider(raw, 'vultr').addOns.snapshots.pricePerGbMonth = null))).toEqual([
      'data/providers.json: providers[2] (vultr).addOns.snapshots.unknownReason: required when paid snapshots have no price per GB',
    ]);
  });

  it('accepts a priced paid add-on, or one that is not paid, without a reason', () => {
    // A reason is asked for an unknown only: a paid address with its price, backups priced by the
    // month alone, and snapshots that are included (no price to give) need none.
    expect(
      problemsAfter((raw) =>
        Object.assign(provider(raw, 'digitalocean').addOns.ipv4, { status: 'paid', pricePerMonth: 4 }),
      ),
    ).toEqual([]);
    expect(
      problemsAfter((raw) =>
        Object.assign(provider(raw, 'vultr').addOns.backups, { percentOfPlanPrice: null, pricePerMonth: 1.2 }),
      ),
    ).toEqual([]);
    expect(
      problemsAfter((raw) =>
        Object.assign(provider(raw, 'digitalocean').addOns.snapshots, { status: 'included', pricePerGbMonth: null }),
      ),
    ).toEqual([]);
  });

  it('refuses charged traffic with no price and no reason', () => {
    expect(
      problemsAfter((raw) =>
        Object.assign(provider(raw, 'linode').addOns.trafficOverage, { price: null, unit: undefined }),
      ),
    ).toEqual([
      'data/providers.json: providers[3] (linode).addOns.trafficOverage.unknownReason: required when charged traffic has no price',
    ]);
  });

  it('refuses a traffic price without its unit', () => {
    expect(problemsAfter((raw) => delete provider(raw, 'linode').addOns.trafficOverage.unit)).toEqual([
      'data/providers.json: providers[3] (linode).addOns.trafficOverage.unit: a price needs its unit, and only a price has one',
    ]);
  });

  it('refuses a traffic price on unmetered traffic', () => {
    expect(
      problemsAfter((raw) => Object.assign(provider(raw, 'ovhcloud').addOns.trafficOverage, { price: 1, unit: 'TB' })),
    ).toEqual([
      'data/providers.json: providers[4] (ovhcloud).addOns.trafficOverage.price: only charged traffic has a price',
    ]);
  });

  it('refuses a traffic unit it does not know', () => {
    expect(problemsAfter((raw) => (provider(raw, 'linode').addOns.trafficOverage.unit = 'MB'))).toEqual([
      'data/providers.json: providers[3] (linode).addOns.trafficOverage.unit: must be one of the following values: GB, GiB, TB',
    ]);
  });

  it('refuses a per-plan backup price for a plan the provider does not sell', () => {
    expect(problemsAfter((raw) => (provider(raw, 'linode').addOns.backups.pricesByPlan['Linode 1 TB'] = 400))).toEqual([
      'data/providers.json: providers[3] (linode).addOns.backups.pricesByPlan.Linode 1 TB: names no plan of linode',
    ]);
  });

  it('refuses a per-plan backup price that is not a number', () => {
    expect(problemsAfter((raw) => (provider(raw, 'linode').addOns.backups.pricesByPlan['Nanode 1 GB'] = '2'))).toEqual([
      'data/providers.json: providers[3] (linode).addOns.backups.pricesByPlan.Nanode 1 GB: must be a number not below 0',
    ]);
  });

  it('accepts a per-plan backup price of 0, and refuses one below', () => {
    expect(problemsAfter((raw) => (provider(raw, 'linode').addOns.backups.pricesByPlan['Nanode 1 GB'] = 0))).toEqual(
      [],
    );
    expect(problemsAfter((raw) => (provider(raw, 'linode').addOns.backups.pricesByPlan['Nanode 1 GB'] = -0.5))).toEqual(
      [
        'data/providers.json: providers[3] (linode).addOns.backups.pricesByPlan.Nanode 1 GB: must be a number not below 0',
      ],
    );
  });

  it('refuses backups included in a line the provider does not have', () => {
    expect(problemsAfter((raw) => (provider(raw, 'upcloud').addOns.backups.includedInLines = ['high-cpu']))).toEqual([
      'data/providers.json: providers[7] (upcloud).addOns.backups.includedInLines[0]: names no plan line of upcloud ("high-cpu")',
    ]);
  });

  it('refuses an unknown tax treatment without a reason', () => {
    expect(problemsAfter((raw) => (provider(raw, 'hetzner').tax.usBusiness = { treatment: 'unknown' }))).toEqual([
      'data/providers.json: providers[0] (hetzner).tax.usBusiness.unknownReason: required when the treatment is unknown',
    ]);
  });

  it('refuses a tax treatment it does not know', () => {
    expect(problemsAfter((raw) => (provider(raw, 'hetzner').tax.euConsumer.treatment = 'vat'))).toEqual([
      'data/providers.json: providers[0] (hetzner).tax.euConsumer.treatment: must be one of the following values: customer-country-vat, reverse-charge, us-sales-tax, unknown',
    ]);
  });

  it('refuses an add-on source read after the dataset version', () => {
    const after = new Date(Date.parse(d.version) + 86_400_000).toISOString().slice(0, 10);
    expect(problemsAfter((raw) => (provider(raw, 'vultr').addOns.snapshots.source.retrievedAt = after))).toEqual([
      `data/providers.json: providers[2] (vultr).addOns.snapshots.source.retrievedAt: must not be after the dataset version (${d.version})`,
    ]);
  });

  it('refuses a tax source dated after it was read', () => {
    expect(problemsAfter((raw) => (provider(raw, 'linode').tax.sources[0].pageDate = '2026-11-27'))).toEqual([
      'data/providers.json: providers[3] (linode).tax.sources[0].pageDate: must not be after retrievedAt (2026-11-26)',
    ]);
  });

  it('refuses a VAT file that leaves out a member state', () => {
    expect(problemsAfter((raw) => delete raw.vatRates.rates.HU)).toEqual([
      'data/vat-rates.json: rates.HU: missing; the file must cover the 27 EU member states and GB',
    ]);
  });

  it('refuses a VAT rate for a country outside the EU and GB', () => {
    expect(problemsAfter((raw) => (raw.vatRates.rates.NO = { ...raw.vatRates.rates.SE, country: 'Norway' }))).toEqual([
      expect.stringMatching(/^data\/vat-rates\.json: rates\.NO: not an EU member state or GB \(AT, BE, /),
    ]);
  });

  it('refuses a VAT rate above 100 percent', () => {
    expect(problemsAfter((raw) => (raw.vatRates.rates.DE.standardRate = 190))).toEqual([
      'data/vat-rates.json: rates.DE.standardRate: must not be greater than 100',
    ]);
  });

  it('refuses a VAT source read after the dataset version', () => {
    const after = new Date(Date.parse(d.version) + 86_400_000).toISOString().slice(0, 10);
    expect(problemsAfter((raw) => (raw.vatRates.rates.FR.source.retrievedAt = after))).toEqual([
      `data/vat-rates.json: rates.FR.source.retrievedAt: must not be after the dataset version (${d.version})`,
    ]);
  });

  it('reports a missing VAT file', async () => {
    const { problems } = await readDatasetFiles(resolve('test/fixtures/does-not-exist'));
    expect(problems).toContain('test/fixtures/does-not-exist/vat-rates.json: is missing');
  });
});
