import type { CallToolResult } from '@modelcontextprotocol/server';
import { mcpSuite } from './support/mcp-tool-caller.js';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Each listing tool, the list it answers with, and argument sets giving lists of five or more. */
const LISTINGS: [tool: string, list: string, argSets: Record<string, unknown>[]][] = [
  ['list_vps_providers', 'providers', [{}, { sortBy: 'price' }, { sortBy: 'name' }]],
  [
    'find_vps_plans',
    'plans',
    [
      {},
      { limit: 5, minRamGb: 4, currency: 'EUR' },
      { limit: 50 },
      { country: 'US', storageType: 'SSD' },
      { location: 'Frankfurt', limit: 20, includeCommitments: true },
    ],
  ],
  [
    'search_guides',
    'results',
    [
      { query: 'wireguard' },
      { query: 'server', limit: 50 },
      { query: 'hetzner', type: 'review', limit: 5 },
      { query: 'backups' },
    ],
  ],
];
const cases = LISTINGS.flatMap(([tool, list, argSets]) => argSets.map((args) => [tool, list, args] as const));
const textOf = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe('responseFormat of the listing tools', () => {
  const { call, data, errorText, tools } = mcpSuite();

  /** The size limits the tool's description states, in characters. */
  const statedLimits = (tool: string) => {
    const m = /under ([\d,]+) characters with responseFormat "concise".*?under ([\d,]+) with "detailed"/.exec(
      tools().find((t) => t.name === tool)!.description!,
    );
    expect(m).not.toBeNull();
    return { concise: Number(m![1].replace(/,/g, '')), detailed: Number(m![2].replace(/,/g, '')) };
  };

  it.each(cases)(
    '%s (%s) %j: concise is at most a third of detailed, each under the size the description states',
    async (tool, list, args) => {
      const concise = await call(tool, { ...args, responseFormat: 'concise' });
      const detailed = await call(tool, { ...args, responseFormat: 'detailed' });
      expect(data(detailed)[list].length).toBeGreaterThanOrEqual(5);
      expect(data(concise)[list].length).toBe(data(detailed)[list].length);
      expect(textOf(concise).length * 3).toBeLessThanOrEqual(textOf(detailed).length);
      const limits = statedLimits(tool);
      expect(textOf(concise).length).toBeLessThanOrEqual(limits.concise);
      expect(textOf(detailed).length).toBeLessThanOrEqual(limits.detailed);
      expect([data(concise).responseFormat, data(detailed).responseFormat, data(detailed).truncated]).toEqual([
        'concise',
        'detailed',
        undefined,
      ]);
    },
  );

  it.each(cases)(
    "%s (%s) %j: the default is the tool's stated one, and each concise item is its detailed item cut to fewer fields",
    async (tool, list, args) => {
      const byDefault = data(await call(tool, args));
      const concise = data(await call(tool, { ...args, responseFormat: 'concise' }));
      const detailed = data(await call(tool, { ...args, responseFormat: 'detailed' }));
      // Every listing answers concisely by default; the HTTP API keeps the contract's full documents.
      expect(byDefault).toEqual(concise);
      if (tool === 'list_vps_providers') for (const p of detailed.providers) expect(p.plans.length).toBeGreaterThan(0);
      concise[list].forEach((item: Json, i: number) => {
        const full = detailed[list][i];
        expect(Object.keys(item).length).toBeLessThan(Object.keys(full).length);
        expect(Object.fromEntries(Object.keys(item).map((k) => [k, full[k]]))).toEqual(item);
      });
    },
  );

  it.each(LISTINGS.map(([tool]) => tool))(
    '%s describes the concise fields as required and the detailed-only ones as optional',
    (tool) => {
      const [, list] = LISTINGS.find(([t]) => t === tool)!;
      const schema: Json = tools().find((t) => t.name === tool)!.outputSchema;
      const item = schema.properties[list].items;
      expect(item.required.length).toBeGreaterThan(1);
      expect(Object.keys(item.properties).length).toBeGreaterThan(item.required.length);
      expect(schema.properties.responseFormat.enum).toEqual(['concise', 'detailed']);
    },
  );

  it.each(LISTINGS.map(([tool, , argSets]) => [tool, argSets[0]] as const))(
    '%s answers a bad responseFormat with an isError naming the valid ones',
    async (tool, args) => {
      expect(errorText(await call(tool, { ...args, responseFormat: 'full' }))).toMatch(
        /responseFormat must be "concise" or "detailed"/,
      );
    },
  );
});
