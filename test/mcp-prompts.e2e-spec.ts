import type { GetPromptResult } from '@modelcontextprotocol/server';
import { readFileSync } from 'node:fs';
import { mcpSuite } from './support/mcp-tool-caller.js';

const currencies = Object.keys(JSON.parse(readFileSync('data/exchange-rates.json', 'utf8')).rates).sort();

describe('the choose_a_vps prompt', () => {
  const { app, client, tools } = mcpSuite();
  const get = async (args: Record<string, string>) =>
    (await client().getPrompt({ name: 'choose_a_vps', arguments: args })) as GetPromptResult;
  const textOf = (r: GetPromptResult) => (r.messages[0].content as { text: string }).text;
  /** The argument names the text quotes for a tool, from the step that calls it. */
  const quotedArgs = (text: string, tool: string) => {
    const step = text.split('\n').find((line) => line.includes(`call \`${tool}\``))!;
    return [...step.slice(step.indexOf(`\`${tool}\``) + tool.length + 2).matchAll(/`(\w+)`/g)]
      .map((m) => m[1])
      .filter((name) => !name.includes('_'));
  };

  it('is listed with its arguments, only the workload required, and the prompts capability', async () => {
    expect(client().getServerCapabilities()?.prompts).toEqual({ listChanged: false });
    const { prompts } = await client().listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['choose_a_vps']);
    expect(prompts[0].arguments!.map((a) => [a.name, a.required])).toEqual([
      ['workload', true],
      ['monthlyBudget', false],
      ['country', false],
      ['trafficTb', false],
    ]);
    for (const a of prompts[0].arguments!) expect(a.description!.length).toBeGreaterThan(20);
  });

  it('walks through workload, budget, country and traffic with the values given', async () => {
    const r = await get({ workload: 'a WordPress shop', monthlyBudget: '20 eur', country: 'de', trafficTb: '2.5' });
    expect(r.messages).toHaveLength(1);
    expect(r.messages[0].role).toBe('user');
    const text = textOf(r);
    expect(text).toContain('`workload`: "a WordPress shop"');
    expect(text).toContain('`maxMonthlyPrice`: 20');
    expect(text).toContain('`currency`: "EUR"');
    expect(text).toContain('`country`: "DE"');
    expect(text).toContain('`trafficTb`: 2.5');
    expect(text).not.toMatch(/not given/);
  });

  it('turns each missing optional argument into a question, and compares in USD', async () => {
    const text = textOf(await get({ workload: 'minecraft' }));
    expect(text.match(/not given: ask me/g)).toHaveLength(3);
    expect(text).toContain('`currency`: "USD"');
    expect(text).not.toContain('maxMonthlyPrice');
  });

  it('names only real tools, each with argument names from its input schema', async () => {
    const text = textOf(await get({ workload: 'vpn', monthlyBudget: '5', country: 'FR', trafficTb: '1' }));
    const named = [...new Set([...text.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)].map((m) => m[1]))];
    expect(named.sort()).toEqual([
      'describe_filters',
      'estimate_monthly_cost',
      'find_equivalent_plans',
      'find_vps_plans',
      'recommend_vps_for_workload',
    ]);
    for (const tool of named) {
      const properties = Object.keys(tools().find((t) => t.name === tool)!.inputSchema.properties ?? {});
      for (const arg of quotedArgs(text, tool))
        expect([tool, arg, properties.includes(arg)]).toEqual([tool, arg, true]);
    }
    expect(quotedArgs(text, 'estimate_monthly_cost')).toEqual([
      'providerId',
      'planName',
      'country',
      'trafficTb',
      'currency',
      'horizonMonths',
      'backups',
    ]);
  });

  it.each([
    [{}, /workload/],
    [{ workload: '   ' }, /workload/],
    [{ workload: 'vpn', monthlyBudget: 'lots' }, /monthlyBudget must be an amount/],
    [{ workload: 'vpn', monthlyBudget: '0' }, /monthlyBudget must be more than 0/],
    [{ workload: 'vpn', country: 'Germany' }, /country must be an ISO 3166-1 alpha-2 code/],
    [{ workload: 'vpn', trafficTb: '-1' }, /trafficTb must be a number of TB a month, 0 or more/],
  ])('refuses %j with an error naming the argument and what is valid', async (args, message) => {
    await expect(get(args as Record<string, string>)).rejects.toThrow(message);
  });

  it('refuses a budget currency with no exchange rate, listing the valid ones', async () => {
    await expect(get({ workload: 'vpn', monthlyBudget: '20 XYZ' })).rejects.toThrow(
      `Use one of: ${currencies.join(', ')}`,
    );
  });

  it('is listed in the server card with its arguments', async () => {
    const card = (await app().http.get('/.well-known/mcp/server-card.json').expect(200)).body;
    expect(card.capabilities.prompts).toEqual({ listChanged: false });
    expect(
      card.prompts.map((p: { name: string; arguments: { name: string; required: boolean }[] }) => [
        p.name,
        p.arguments.map((a) => [a.name, a.required]),
      ]),
    ).toEqual([
      [
        'choose_a_vps',
        [
          ['workload', true],
          ['monthlyBudget', false],
          ['country', false],
          ['trafficTb', false],
        ],
      ],
    ]);
    expect(card.tools.map((t: { name: string }) => t.name)).toEqual(tools().map((t) => t.name));
  });
});
