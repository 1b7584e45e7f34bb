import { loadDataset } from '../dataset/dataset-loader.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import { pricedPlans } from '../dataset/plan-pricing.js';
import { checkedForRelease, plansPutForward, unorderablePicks, type PutForward } from './orderable-picks.js';

/*
 * The embedded dataset lists plans read as not orderable (Hetzner's CX and CAX types in September
 * 2026) that are cheaper than anything Hetzner sells: a derivation that forgot orderability would put
 * one of them forward.
 */
describe('orderable picks', () => {
  let snapshot: DatasetSnapshot;
  let unorderable: { providerId: string; planName: string }[];

  beforeAll(async () => {
    snapshot = await loadDataset('data');
    unorderable = snapshot.providers.flatMap((p) =>
      pricedPlans(p, snapshot.asOf)
        .filter((plan) => plan.orderable === false && !plan.discontinued)
        .map((plan) => ({ providerId: p.id, planName: plan.name })),
    );
  });

  const isUnorderable = (pick: PutForward) =>
    unorderable.some((u) => u.providerId === pick.providerId && u.planName === pick.planName);

  it('has unorderable plans to be tempted by', () => {
    expect(unorderable.length).toBeGreaterThan(0);
  });

  describe('unorderablePicks refuses', () => {
    const cases: [string, string][] = [
      ["a provider's startingPrice", 'providers.json: hetzner.startingPrice'],
      ['recommendations.bestBudget', 'recommendations.bestBudget'],
      ["a use case's startingAt", 'use case vpn startingAt'],
      ["a generated guide's pick", "a generated guide's pick of hetzner"],
    ];
    it.each(cases)('%s resting on an unorderable plan, saying which and when it was read', (_kind, what) => {
      const plan = unorderable[0];
      const problems = unorderablePicks([{ what, ...plan }], snapshot.providers, snapshot.asOf);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(
        new RegExp(
          `^${what.replace(/[.]/g, '\\.')} rests on ${plan.providerId} ${plan.planName}, which cannot be ordered \\(seen \\d{4}-\\d{2}-\\d{2}, https://`,
        ),
      );
    });

    it('nothing that rests on a plan that can be ordered, or whose orderability is unknown', () => {
      const hetzner = pricedPlans(snapshot.providersById.get('hetzner')!, snapshot.asOf);
      const fine = hetzner.filter((plan) => plan.orderable !== false && !plan.discontinued);
      expect(fine.length).toBeGreaterThan(0);
      const picks = fine.map((plan) => ({ what: 'x', providerId: 'hetzner', planName: plan.name }));
      expect(unorderablePicks(picks, snapshot.providers, snapshot.asOf)).toEqual([]);
    });
  });

  describe('the prices the embedded dataset puts forward', () => {
    let picks: PutForward[];
    beforeAll(() => {
      picks = plansPutForward(snapshot);
    });

    it("name every provider's entry plan, bestBudget's plan, every use case's entry plan and the guides' candidates", () => {
      for (const p of snapshot.providers)
        expect(picks.some((x) => x.what === `providers.json: ${p.id}.startingPrice`)).toBe(true);
      expect(picks.filter((x) => x.what === 'recommendations.bestBudget')).toHaveLength(1);
      for (const u of snapshot.useCases)
        expect(picks.some((x) => x.what === `use case ${u.slug} startingAt`)).toBe(true);
      expect(picks.some((x) => x.what === "a generated guide's pick of hetzner")).toBe(true);
    });

    it('rest on orderable plans only, and the dataset is released', () => {
      expect(picks.filter(isUnorderable)).toEqual([]);
      expect(checkedForRelease(snapshot, 'data')).toBe(snapshot);
    });
  });
});
