import { mcpSuite } from './support/mcp-tool-caller';
import { rawProviders } from './support/raw-data';
import { onReleaseDay } from './support/clock';

// The expectations below are worked out for the release day; ages are measured to the day of the answer.
onReleaseDay();

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/*
 * A plan the provider lists but does not let anyone order is never ranked by the plan-finding tools
 * unless the caller asks for it with includeUnorderable; then it is listed, flagged. The embedded
 * dataset has such plans: Hetzner's CX and CAX types, read as not available in September 2026.
 */
const hetzner = rawProviders.providers.find((p: Json) => p.id === 'hetzner');
const lineOf = (plan: Json) => hetzner.planLines.find((l: Json) => l.id === plan.line);
const unorderable: Json[] = hetzner.plans.filter(
  (plan: Json) => plan.availability?.orderable === false && !lineOf(plan).discontinued,
);
const unorderableNames = new Set(unorderable.map((plan: Json) => plan.name));
const cheapestUnorderable = [...unorderable].sort((a, b) => a.price - b.price)[0];

const suite = mcpSuite();

describe('includeUnorderable', () => {
  const { call, data } = suite;

  it('the embedded dataset has Hetzner plans read as not orderable, cheaper than any it sells', () => {
    expect(unorderable.length).toBeGreaterThan(0);
    const orderablePrices = hetzner.plans
      .filter((plan: Json) => plan.availability?.orderable !== false)
      .map((p: Json) => p.price);
    expect(cheapestUnorderable.price).toBeLessThan(Math.min(...orderablePrices));
  });

  it('find_vps_plans leaves them out and counts them by default, and lists them flagged when asked', async () => {
    const byDefault = data(await call('find_vps_plans', { providers: ['hetzner'], limit: 50 }));
    expect(byDefault.filters.includeUnorderable).toBe(false);
    expect(byDefault.plans.filter((p: Json) => unorderableNames.has(p.planName))).toEqual([]);
    expect(byDefault.leftOutUnorderable).toBe(unorderable.length);

    const asked = data(await call('find_vps_plans', { providers: ['hetzner'], includeUnorderable: true, limit: 50 }));
    expect(asked.filters.includeUnorderable).toBe(true);
    expect(asked.leftOutUnorderable).toBe(0);
    const listed = asked.plans.filter((p: Json) => unorderableNames.has(p.planName));
    expect(listed.map((p: Json) => p.planName).sort()).toEqual([...unorderableNames].sort());
    for (const p of listed) expect(p.orderable).toBe(false);
    // Cheapest first: the cheapest plan overall is now one nobody can order, and it says so.
    expect(asked.plans[0]).toMatchObject({ planName: cheapestUnorderable.name, orderable: false });
    expect(asked.totalMatches).toBe(byDefault.totalMatches + unorderable.length);
  });

  it('find_equivalent_plans never offers them unless asked, and then flags them', async () => {
    const figures = { vcpus: 1, ramGb: 1, storageGb: 10, limit: 50 };
    const byDefault = data(await call('find_equivalent_plans', figures));
    expect(
      byDefault.equivalents.filter((e: Json) => e.providerId === 'hetzner' && unorderableNames.has(e.planName)),
    ).toEqual([]);
    const asked = data(await call('find_equivalent_plans', { ...figures, includeUnorderable: true }));
    const offered = asked.equivalents.filter(
      (e: Json) => e.providerId === 'hetzner' && unorderableNames.has(e.planName),
    );
    expect(offered.length).toBeGreaterThan(0);
    for (const e of offered) expect(e.orderable).toBe(false);
    expect(asked.equivalents.filter((e: Json) => e.orderable === false)).toEqual(offered);
  });

  it('recommend_vps_for_workload never picks one for a provider unless asked, and then flags it', async () => {
    const pickOf = (answer: Json) => answer.providers.find((p: Json) => p.id === 'hetzner');
    const byDefault = data(await call('recommend_vps_for_workload', { workload: 'vpn' }));
    const usual = pickOf(byDefault).cheapestMatchingPlan;
    expect(usual).not.toBeNull();
    expect(unorderableNames.has(usual.planName)).toBe(false);
    expect(usual.orderable).toBeUndefined();

    const asked = data(await call('recommend_vps_for_workload', { workload: 'vpn', includeUnorderable: true }));
    expect(asked.filters).toMatchObject({ includeUnorderable: true });
    expect(pickOf(asked).cheapestMatchingPlan).toMatchObject({ planName: cheapestUnorderable.name, orderable: false });
  });
});
