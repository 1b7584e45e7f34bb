import { readFileSync } from 'node:fs';
import { planServices } from '../../test/support/dataset-services.js';
import { figures, pricedPlanOf, toCurrencyWith, transferOf } from '../../test/support/independent-figures.js';
import { rawProviders } from '../../test/support/raw-data.js';
import { InvalidArgumentError, NotFoundError } from '../common/errors/domain-errors.js';
import type { EquivalentPlansService } from './equivalent-plans.service.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

// Every plan's figures and no-commitment price, read from the raw files, not from the plan table.
const toCurrency = toCurrencyWith(JSON.parse(readFileSync('data/exchange-rates.json', 'utf8')));
const rows = rawProviders.providers.flatMap((p: Json) =>
  p.plans.map((plan: Json) => ({
    providerId: p.id,
    planName: plan.name,
    price: plan.price,
    currency: plan.currency,
    m2m: pricedPlanOf(p, plan).monthToMonthPrice,
    discontinued: p.planLines.find((l: Json) => l.id === plan.line).discontinued !== undefined,
    // Listed by the provider but read as not orderable: no alternative anyone can buy.
    unorderable: plan.availability?.orderable === false,
    observedAt: plan.observedAt,
    stale: pricedPlanOf(p, plan).stale,
    cpuType: plan.cpuType,
    ...figures(plan),
    ...transferOf(plan.bandwidth),
  })),
);

/**
 * Lower and incomparable figures, by plan search's transfer rule written here: unmetered traffic meets
 * any volume, a volume is lower than unmetered, an allowance stated neither way compares with nothing.
 */
function comparedFigures(r: Json, ref: Json, byPlan: boolean) {
  const sized = ['vcpus', 'ramGb', 'storageGb'];
  const lowerThanReference = sized.filter((f) => r[f] !== null && ref[f] != null && r[f] < ref[f]);
  const notComparable = byPlan ? sized.filter((f) => (r[f] === null) !== (ref[f] === null)) : [];
  const refStated = ref.unmetered || ref.bandwidthTb != null;
  const mineStated = r.unmetered || r.bandwidthTb !== null;
  if (byPlan && refStated && !r.unmetered) {
    if (r.bandwidthTb === null) notComparable.push('bandwidthTb');
    else if (ref.unmetered || r.bandwidthTb < ref.bandwidthTb) lowerThanReference.push('bandwidthTb');
  } else if (byPlan && !refStated && mineStated) notComparable.push('bandwidthTb');
  return { lowerThanReference, notComparable };
}

/** The equivalents of `ref` in `currency`, cheapest first, as the tool description promises them: a dedicated reference only by dedicated plans. */
function expectedFor(ref: Json, currency: string, byPlan: boolean) {
  const refPrice = byPlan && ref.m2m !== null ? toCurrency(ref.m2m, ref.currency, currency) : undefined;
  return rows
    .filter((r: Json) => r.providerId !== ref.providerId && r.m2m !== null && !r.discontinued && !r.unorderable)
    .filter((r: Json) => ['vcpus', 'ramGb', 'storageGb'].every((f) => ref[f] == null || r[f] >= ref[f]))
    .filter((r: Json) => ref.cpuType !== 'dedicated' || r.cpuType === 'dedicated')
    .map((r: Json) => {
      const price = toCurrency(r.m2m, r.currency, currency);
      return {
        providerId: r.providerId,
        planName: r.planName,
        normalizedPrice: price,
        observedAt: r.observedAt,
        stale: r.stale,
        ...(refPrice === undefined
          ? {}
          : { priceDifferencePercent: Math.round(((price - refPrice) / refPrice) * 1000) / 10 }),
        ...comparedFigures(r, ref, byPlan),
      };
    })
    .sort(
      (a: Json, b: Json) =>
        a.normalizedPrice - b.normalizedPrice ||
        a.providerId.localeCompare(b.providerId) ||
        a.planName.localeCompare(b.planName),
    );
}
const compared = (e: Json) => ({
  providerId: e.providerId,
  planName: e.planName,
  normalizedPrice: e.normalizedPrice,
  observedAt: e.observedAt,
  stale: e.stale,
  priceDifferencePercent: e.priceDifferencePercent,
  lowerThanReference: e.lowerThanReference,
  notComparable: e.notComparable,
});

describe('EquivalentPlansService', () => {
  let equivalents: EquivalentPlansService;
  beforeAll(async () => {
    ({ equivalents } = await planServices());
  });

  it.each([
    ['linode', 'Linode 4 GB', 'EUR'],
    ['hetzner', 'CCX13', 'USD'],
    ['ovhcloud', 'VPS-1', 'GBP'],
  ])(
    'lists what meets %s %s at other providers, cheapest first in %s, with the difference and the lower and incomparable figures',
    (providerId, planName, currency) => {
      const ref = rows.find((r: Json) => r.providerId === providerId && r.planName === planName);
      const expected = expectedFor(ref, currency, true);
      const r = equivalents.find({
        providerId,
        planName: planName.toUpperCase(),
        currency: currency.toLowerCase(),
        limit: 50,
      });
      expect(r.totalMatches).toBe(expected.length);
      expect(r.equivalents.map(compared)).toEqual(expected.slice(0, 50).map(compared));
      expect(r.reference).toMatchObject({
        providerId,
        planName,
        vcpus: ref.vcpus,
        ramGb: ref.ramGb,
        storageGb: ref.storageGb,
        bandwidthTb: ref.bandwidthTb,
      });
      expect([r.currency, r.comparedOn]).toEqual([currency, 'no-commitment']);
      expect(r.reference.cpuType).toBe(ref.cpuType);
    },
  );

  it('never lists a shared-vCPU plan as an equivalent of a dedicated one: the cheapest are apart, flagged lower', () => {
    const ref = rows.find((r: Json) => r.providerId === 'hetzner' && r.planName === 'CCX13');
    const shared = rows
      .filter(
        (r: Json) =>
          r.providerId !== 'hetzner' &&
          r.m2m !== null &&
          !r.discontinued &&
          !r.unorderable &&
          r.cpuType === 'shared' &&
          r.vcpus >= ref.vcpus &&
          r.ramGb >= ref.ramGb &&
          r.storageGb >= ref.storageGb,
      )
      .map((r: Json) => ({ ...r, usd: toCurrency(r.m2m, r.currency, 'USD') }))
      .sort(
        (a: Json, b: Json) =>
          a.usd - b.usd || a.providerId.localeCompare(b.providerId) || a.planName.localeCompare(b.planName),
      );
    const r = equivalents.find({ providerId: 'hetzner', planName: 'CCX13', limit: 50 });
    expect(r.equivalents.every((e) => e.cpuType === 'dedicated')).toBe(true);
    expect(r.sharedCpuLeftOut).toBe(shared.length);
    expect(
      r.sharedCpuAlternatives!.map((e) => [e.providerId, e.planName, e.lowerThanReference.includes('cpuType')]),
    ).toEqual(shared.slice(0, 3).map((x: Json) => [x.providerId, x.planName, true]));
  });

  it('names the figures below the reference, and unmetered traffic as meeting any volume', () => {
    const ref = rows.find((r: Json) => r.providerId === 'linode' && r.planName === 'Linode 4 GB');
    const r = equivalents.find({ providerId: 'linode', planName: 'Linode 4 GB', limit: 50 });
    expect(r.equivalents.some((e) => e.lowerThanReference.includes('bandwidthTb'))).toBe(ref.bandwidthTb !== null);
    const unmetered = r.equivalents.filter((e) => e.unmetered); // Contabo's, UpCloud's
    expect(unmetered.length).toBeGreaterThan(0);
    for (const e of unmetered)
      expect([e.planName, e.notComparable, e.lowerThanReference]).toEqual([e.planName, [], []]);
  });

  it('takes figures instead of a plan, with no price difference', () => {
    const expected = expectedFor({ providerId: undefined, vcpus: 4, ramGb: 16, storageGb: null }, 'USD', false);
    const r = equivalents.find({ vcpus: 4, ramGb: 16 });
    expect(r.totalMatches).toBe(expected.length);
    expect(r.equivalents.map(compared)).toEqual(expected.slice(0, 10).map(compared));
    expect(r.equivalents.every((e) => e.priceDifferencePercent === undefined)).toBe(true);
  });

  it('keeps the limit between 1 and 50', () => {
    expect(equivalents.find({ ramGb: 1, limit: 500 }).equivalents).toHaveLength(50);
    expect(equivalents.find({ ramGb: 1, limit: 0 }).equivalents).toHaveLength(1);
  });

  it.each([
    [{ providerId: 'hetzner' }, 'providerId'],
    [{}, 'providerId'],
    [{ ramGb: 4, currency: 'XYZ' }, 'currency'],
    [{ providerId: 'digitalocean', planName: 'CX23' }, 'planName'],
  ])('refuses %j, naming the argument', (query, argument) => {
    expect(() => equivalents.find(query)).toThrow(
      expect.objectContaining({ argument, constructor: InvalidArgumentError }),
    );
  });

  it('says which provider sells a plan name asked of another', () => {
    expect(() => equivalents.find({ providerId: 'digitalocean', planName: 'CX23' })).toThrow(
      /"CX23" is a plan of hetzner/,
    );
  });

  it('refuses an unknown provider with every valid id', () => {
    expect(() => equivalents.find({ providerId: 'aws', planName: 'x' })).toThrow(
      expect.objectContaining({
        constructor: NotFoundError,
        validIds: rows
          .map((r: Json) => r.providerId)
          .filter((id: string, i: number, a: string[]) => a.indexOf(id) === i),
      }),
    );
  });
});
