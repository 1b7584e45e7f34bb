import { mcpSuite } from './support/mcp-tool-caller';
import { rawGuides } from './support/raw-data';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Arguments each tool needs to answer, so the unknown argument beside them is the only fault. */
const REQUIRED: Record<string, Record<string, unknown>> = {
  get_vps_provider: { id: 'hetzner' },
  get_guide: { slug: rawGuides[0].slug },
  search_guides: { query: 'wireguard' },
  recommend_vps_for_workload: { workload: 'vpn' },
  estimate_monthly_cost: { providerId: 'hetzner', planName: 'CX23', country: 'DE' },
  find_equivalent_plans: { ramGb: 4 },
};

// One app and MCP client for every describe of this file (read-only calls).
const { call, data, errorText, tools } = mcpSuite();

describe('MCP tool inputs fail loudly and helpfully', () => {
  it('publishes every input schema as closed (additionalProperties: false)', () => {
    expect(tools().length).toBeGreaterThan(5);
    for (const tool of tools()) expect([tool.name, tool.inputSchema.additionalProperties]).toEqual([tool.name, false]);
  });

  it('refuses an unknown argument on every tool, naming it and every valid argument', async () => {
    for (const tool of tools()) {
      const required = (tool.inputSchema.required ?? []) as string[];
      const args = REQUIRED[tool.name] ?? {};
      expect([tool.name, required.filter((r) => !(r in args))]).toEqual([tool.name, []]);
      // Valid arguments alone answer; with one unknown argument added, the call is refused.
      expect([tool.name, (await call(tool.name, args)).isError ?? false]).toEqual([tool.name, false]);
      const text = errorText(await call(tool.name, { ...args, bogusArgument: 1 }));
      expect(text).toContain('Unknown argument "bogusArgument"');
      for (const name of Object.keys(tool.inputSchema.properties ?? {})) expect(text).toContain(name);
    }
  });

  it.each([
    ['recommend_vps_for_workload', { Workload: 'wordpress', BUDGET: 20 }, { workload: 'wordpress', budget: 20 }],
    ['find_vps_plans', { MinRamGb: 8, Currency: 'EUR' }, { minRamGb: 8, currency: 'EUR' }],
    ['get_vps_provider', { ID: 'DigitalOcean' }, { id: 'digitalocean' }],
    ['find_vps_plans', { providers: ['Hetzner', 'UPCLOUD'] }, { providers: ['hetzner', 'upcloud'] }],
    [
      'estimate_monthly_cost',
      { ProviderId: 'Hetzner', planName: 'CX23', country: 'DE' },
      { providerId: 'hetzner', planName: 'CX23', country: 'DE' },
    ],
  ])('%s takes argument names and ids in any case: %j answers as %j', async (tool, asTyped, asSpelled) => {
    const typed = await call(tool, asTyped);
    expect(typed.isError ?? false).toBe(false);
    expect(data(typed)).toEqual(data(await call(tool, asSpelled)));
  });

  it.each([
    ['find_vps_plans', { country: 'United Kingdom', minRamGb: 4 }, { country: 'GB', minRamGb: 4 }],
    ['find_vps_plans', { country: 'germany' }, { country: 'DE' }],
    ['find_vps_plans', { country: 'UK' }, { country: 'GB' }],
    ['find_equivalent_plans', { ramGb: 4, country: 'Deutschland' }, { ramGb: 4, country: 'DE' }],
    [
      'estimate_monthly_cost',
      { providerId: 'hetzner', planName: 'CX33', country: 'United Kingdom' },
      { providerId: 'hetzner', planName: 'CX33', country: 'GB' },
    ],
  ])('%s takes a country by name: %j answers as %j', async (tool, byName, byCode) => {
    const named = await call(tool, byName);
    expect(named.isError ?? false).toBe(false);
    expect(data(named)).toEqual(data(await call(tool, byCode)));
  });

  it.each([
    ['find_vps_plans', { minRamGb: 'eight' }, /minRamGb must be a number of GB above 0 and at most 4,096, such as 8/],
    ['find_vps_plans', { minVcpus: 2.5 }, /minVcpus must be a whole number of vCPUs above 0.*such as 2/],
    ['estimate_monthly_cost', { minRamGb: -1 }, /minRamGb must be a number of GB above 0.*such as 8/],
    ['find_equivalent_plans', { ramGb: 100000 }, /ramGb must be a number of GB above 0 and at most 4,096/],
    [
      'recommend_vps_for_workload',
      { workload: 'vpn', budget: 'cheap' },
      /budget must be a number of the currency a month above 0/,
    ],
    ['find_vps_plans', { architecture: 'sparc' }, /architecture must be "x86_64" or "arm64"/],
    [
      'estimate_monthly_cost',
      { providerId: 'hetzner', planName: 'CX23', backups: 'hourly' },
      /backups must be "daily", "weekly", true/,
    ],
  ])('%s refuses %j saying what would be valid', async (tool, args, message) => {
    expect(errorText(await call(tool, args))).toMatch(message);
  });

  it('still refuses a name passed twice in two cases, rather than choosing one', async () => {
    const text = errorText(await call('find_vps_plans', { minRamGb: 4, MINRAMGB: 8 }));
    expect(text).toContain('Unknown argument "MINRAMGB"');
  });

  it('never answers {minRam: 4} with an unfiltered list: it names minRamGb', async () => {
    const r = await call('find_vps_plans', { minRam: 4 });
    expect(r.structuredContent).toBeUndefined();
    expect(errorText(r)).toMatch(/Unknown argument "minRam"\..*Did you mean "minRam" -> "minRamGb"/);
  });

  it('never prices another region when "region" is passed for "location"', async () => {
    const plans = await call('find_vps_plans', { region: 'Ashburn', minRamGb: 4 });
    expect(errorText(plans)).toMatch(/Unknown argument "region".*"region" -> "location" or "country"/);
    const cost = await call('estimate_monthly_cost', {
      providerId: 'hetzner',
      planName: 'CPX22',
      country: 'US',
      region: 'Ashburn',
    });
    expect(errorText(cost)).toMatch(/Unknown argument "region".*"region" -> "country" or "datacenter"/);
  });

  it('still answers the same call without the unknown argument', async () => {
    expect(data(await call('find_vps_plans', { minRamGb: 4, limit: 1 })).plans).toHaveLength(1);
  });
});

describe('"did you mean" for ids, cities and countries', () => {
  it('matches provider ids in any case, as plan names are', async () => {
    const r = data(await call('find_vps_plans', { providers: ['DigitalOcean'], limit: 1 }));
    expect(r.filters.providers).toEqual(['digitalocean']);
    expect(r.plans[0].providerId).toBe('digitalocean');
    const cost = data(await call('estimate_monthly_cost', { providerId: 'Hetzner', planName: 'cx33', country: 'DE' }));
    expect([cost.plan.providerId, cost.plan.planName]).toEqual(['hetzner', 'CX33']);
    const eq = data(await call('find_equivalent_plans', { providerId: 'LINODE', planName: 'dedicated 8 gb' }));
    expect(eq.reference.providerId).toBe('linode');
  });

  it.each([
    ['find_vps_plans', { providers: ['hetzner-cloud'] }, /Closest matches: hetzner\./],
    ['find_equivalent_plans', { providerId: 'hetzner-cloud', planName: 'CX33' }, /Closest matches: hetzner\./],
    ['estimate_monthly_cost', { providerId: 'vultur', planName: 'x', country: 'DE' }, /Closest matches: vultr\./],
    ['find_vps_plans', { location: 'Singapur' }, /Did you mean "Singapore"\?/],
    ['find_equivalent_plans', { ramGb: 4, location: 'Frankfort' }, /Did you mean "Frankfurt"\?/],
    ['find_vps_plans', { location: 'Germany' }, /"Germany" is a country: pass country: "DE"/],
    ['estimate_monthly_cost', { providerId: 'hetzner', planName: 'CX34' }, /Did you mean "CX33"/],
  ])('%s %j suggests the valid value', async (tool, args, expected) => {
    expect(errorText(await call(tool, args))).toMatch(expected);
  });
});
