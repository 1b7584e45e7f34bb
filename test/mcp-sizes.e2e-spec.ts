import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { connectMcp } from './support/mcp-client';
import { startTestApp, type TestApp } from './support/test-app';
import { TOOL_NAMES } from './support/tool-names';

/** One row of the budget table in docs/mcp.md: what is measured, with which arguments, and its most characters. */
interface Budget {
  answer: string;
  args: Record<string, unknown> | null;
  budget: number;
}

/**
 * The rows of the table under "Answer sizes" in docs/mcp.md: `| \`answer\` | \`{args}\` or - | 12,000 |`.
 * The test reads the budgets from the documentation so the figures a reader sees are the ones enforced.
 */
function documentedBudgets(): Budget[] {
  const doc = readFileSync(join(__dirname, '..', 'docs', 'mcp.md'), 'utf8');
  const section = doc.split(/^#+ Answer sizes$/m)[1]?.split(/^#/m)[0] ?? '';
  return [...section.matchAll(/^\| `([a-z_/]+)` \| (?:`(\{.*\})`|-) \| ([\d,]+) \|/gm)].map((m) => ({
    answer: m[1],
    args: m[2] === undefined ? null : JSON.parse(m[2]),
    budget: Number(m[3].replace(/,/g, '')),
  }));
}

describe('MCP answer sizes', () => {
  let t: TestApp;
  let client: Client;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '100000' });
    client = await connectMcp(t.baseUrl);
  });
  afterAll(async () => {
    await client.close();
    await t.close();
  });

  const budgets = documentedBudgets();

  it('has a budget in docs/mcp.md for tools/list and for the default answer of every tool', () => {
    expect(budgets.map((b) => b.answer).sort()).toEqual(['tools/list', ...TOOL_NAMES].sort());
  });

  // Issue #41's goals, so the documented budgets cannot drift above them: tools/list within 40,000
  // characters, every tool's default answer within 8,000 (a guide's own text aside: get_guide pages it).
  it('documents budgets within the goals: tools/list 40,000, every default answer but get_guide 8,000', () => {
    const over = budgets.filter((b) =>
      b.answer === 'tools/list' ? b.budget > 40_000 : b.answer !== 'get_guide' && b.budget > 8_000,
    );
    expect(over).toEqual([]);
  });

  it.each([
    ['list_vps_providers', { sortBy: 'price' }],
    ...['hetzner', 'digitalocean', 'vultr', 'linode', 'ovhcloud', 'contabo', 'hostinger', 'upcloud'].map(
      (id) => ['get_vps_provider', { id }] as const,
    ),
    ['get_dataset_changes', { since: '2000-01-01' }],
    ['find_vps_plans', { location: 'Singapore', minRamGb: 4 }],
    ['describe_filters', {}],
  ])('answers %s %j by default within 8,000 characters', async (name, args) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError).toBeFalsy();
    expect((result.content as { text: string }[])[0].text.length).toBeLessThanOrEqual(8_000);
  });

  /** Characters of the answer as a client receives it: the JSON of tools/list's tools, or a tool's text content. */
  const measure = async ({ answer, args }: Budget): Promise<number> => {
    if (answer === 'tools/list') {
      const res = await t.http
        .post('/mcp')
        .set('Accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
        .expect(200);
      return JSON.stringify(res.body.result.tools).length;
    }
    const result = await client.callTool({ name: answer, arguments: args ?? {} });
    expect(result.isError).toBeFalsy();
    return (result.content as { text: string }[])[0].text.length;
  };

  it("publishes each object definition once in a tool's output schema: one used twice is shared under $defs", async () => {
    const res = await t.http
      .post('/mcp')
      .set('Accept', 'application/json, text/event-stream')
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list' })
      .expect(200);
    const repeats = res.body.result.tools.flatMap((tool: { name: string; outputSchema: unknown }) => {
      const seen = new Map<string, number>();
      const walk = (node: unknown): void => {
        if (Array.isArray(node)) return node.forEach(walk);
        if (node === null || typeof node !== 'object') return;
        const text = JSON.stringify(node);
        // Small objects ({ min, max }) cost less than a reference would save.
        if ((node as { type?: unknown }).type === 'object' && text.length >= 200)
          seen.set(text, (seen.get(text) ?? 0) + 1);
        Object.values(node).forEach(walk);
      };
      walk(tool.outputSchema);
      return [...seen]
        .filter(([, times]) => times > 1)
        .map(([text, times]) => ({ tool: tool.name, times, schema: text.slice(0, 80) }));
    });
    expect(repeats).toEqual([]);
  });

  it.each(budgets.map((b) => [b.answer, b] as const))(
    'keeps %s within its documented budget',
    async (_name, budget) => {
      const size = await measure(budget);
      expect({ answer: budget.answer, size, within: size <= budget.budget }).toEqual({
        answer: budget.answer,
        size,
        within: true,
      });
    },
  );
});
