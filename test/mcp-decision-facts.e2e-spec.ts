import { figures, pricedPlanOf, toCurrencyWith } from './support/independent-figures';
import { mcpSuite } from './support/mcp-tool-caller';
import { rawExchangeRates, rawProviders } from './support/raw-data';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const usd = toCurrencyWith(rawExchangeRates);
// Every plan still sold with no commitment, read from the raw files: figures, CPU type, the USD price, and where its line is sold.
const sold = rawProviders.providers.flatMap((p: Json) =>
  p.plans
    .map((plan: Json) => ({ plan, priced: pricedPlanOf(p, plan), line: p.planLines.find((l: Json) => l.id === plan.line) }))
    .filter(({ priced }: Json) => !priced.discontinued && priced.monthToMonthPrice !== null)
    .map(({ plan, priced, line }: Json) => ({
      providerId: p.id,
      planName: plan.name,
      cpuType: plan.cpuType,
      usd: usd(priced.monthToMonthPrice, plan.currency, 'USD'),
      cities: p.datacenters.filter((d: Json) => !line.datacenters || line.datacenters.includes(d.city)).map((d: Json) => d.city),
      allCities: !line.datacenters,
      ...figures(plan),
    })),
);
const byPrice = (a: Json, b: Json) => a.usd - b.usd || a.providerId.localeCompare(b.providerId) || a.planName.localeCompare(b.planName);

describe('MCP answers carry the facts that change the decision', () => {
  const { call, data, errorText } = mcpSuite();

  describe('CPU type in find_vps_plans', () => {
    it('answers the cheapest 8 GB dedicated-CPU plan in one call, and every plan says its CPU type, concise too', async () => {
      const expected = sold.filter((x: Json) => x.ramGb >= 8 && x.cpuType === 'dedicated').sort(byPrice);
      expect(expected.length).toBeGreaterThan(3);
      const r = data(await call('find_vps_plans', { minRamGb: 8, cpuType: 'Dedicated', limit: 3 }));
      expect(r.filters.cpuType).toBe('dedicated');
      expect(r.totalMatches).toBe(expected.length);
      expect(r.plans.map((p: Json) => [p.providerId, p.planName, p.normalizedPrice, p.cpuType])).toEqual(expected.slice(0, 3).map((x: Json) => [x.providerId, x.planName, x.usd, 'dedicated']));
      // Without the filter, each plan's CPU type is the raw file's.
      const all = data(await call('find_vps_plans', { limit: 50 }));
      for (const p of all.plans) expect(p.cpuType).toBe(sold.find((x: Json) => x.providerId === p.providerId && x.planName === p.planName).cpuType);
      expect(new Set(all.plans.map((p: Json) => p.cpuType))).toEqual(new Set(['shared', 'dedicated']));
    });

    it('says what the closest plans miss when no dedicated plan fits, and refuses a CPU type it does not know', async () => {
      const r = data(await call('find_vps_plans', { cpuType: 'dedicated', maxMonthlyPrice: 1 }));
      expect(r.totalMatches).toBe(0);
      for (const c of r.closestMatches) expect(['shared', 'dedicated']).toContain(c.cpuType);
      expect(errorText(await call('find_vps_plans', { cpuType: 'burstable' }))).toMatch(/cpuType/);
    });
  });
});
