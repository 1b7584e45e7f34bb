import type { Transport } from '@modelcontextprotocol/server';
import type { Request, Response } from 'express';
import { HttpProblem } from '../common/errors/http-problem';
import { MCP_BODY_LIMIT_BYTES } from '../common/http/mcp-path';
import type { RateLimiter } from '../common/rate-limit/rate-limiter';
import {
  MAX_BATCH_SIZE,
  MAX_BODY_DEPTH,
  MAX_PARAMS_BYTES,
  McpTransportRules,
  nestsDeeperThan,
  oversizedParams,
} from './mcp-transport-rules';

const ping = (id: number | string) => ({ jsonrpc: '2.0', id, method: 'ping' });
const note = { jsonrpc: '2.0', method: 'notifications/initialized' };

/** Rules over a limiter that records what it was asked to count. */
function rulesCounting() {
  const counted: number[] = [];
  const limiter = {
    countMore: async (_req: unknown, _res: unknown, more: number) => void counted.push(more),
  } as unknown as RateLimiter;
  return { rules: new McpTransportRules(limiter), counted };
}
const requestWith = (version?: string) => ({ headers: version ? { 'mcp-protocol-version': version } : {} }) as Request;
const res = {} as Response;

async function problemOf(promise: Promise<void>): Promise<{ status: number; message: string } | 'admitted'> {
  try {
    await promise;
    return 'admitted';
  } catch (error) {
    if (!(error instanceof HttpProblem)) throw error;
    return { status: error.status, message: error.message };
  }
}

describe(McpTransportRules.name, () => {
  describe('admit', () => {
    it('counts the further requests of a batch, not its notifications, and nothing for a single message', async () => {
      const { rules, counted } = rulesCounting();
      await rules.admit(requestWith(), res, [ping(1), note, ping(2), ping(3)]);
      await rules.admit(requestWith(), res, [ping(1), note]);
      await rules.admit(requestWith('2025-11-25'), res, ping(1));
      expect(counted).toEqual([2]);
    });

    it.each([
      [
        `a batch of more than ${MAX_BATCH_SIZE}`,
        undefined,
        Array.from({ length: MAX_BATCH_SIZE + 1 }, (_, i) => ping(i)),
        `at most ${MAX_BATCH_SIZE}`,
      ],
      ['a batch under 2025-06-18', '2025-06-18', [ping(1), ping(2)], 'revision 2025-06-18 has no JSON-RPC batches'],
      ['a batch under 2025-11-25', '2025-11-25', [ping(1)], 'revision 2025-11-25 has no JSON-RPC batches'],
      ['a batch with two requests of one id', undefined, [ping(1), note, ping(1)], 'same id'],
    ])('refuses %s with 400 before counting it', async (_n, version, body, says) => {
      const { rules, counted } = rulesCounting();
      expect(await problemOf(rules.admit(requestWith(version), res, body))).toEqual({
        status: 400,
        message: expect.stringContaining(says),
      });
      expect(counted).toEqual([]);
    });

    it(`takes a batch of exactly ${MAX_BATCH_SIZE} under 2025-03-26, and leaves a version it does not know to the SDK`, async () => {
      const { rules, counted } = rulesCounting();
      expect(
        await problemOf(
          rules.admit(
            requestWith('2025-03-26'),
            res,
            Array.from({ length: MAX_BATCH_SIZE }, (_, i) => ping(i)),
          ),
        ),
      ).toBe('admitted');
      expect(await problemOf(rules.admit(requestWith('2099-01-01'), res, [ping(1), ping(2)]))).toBe('admitted');
      expect(counted).toEqual([MAX_BATCH_SIZE - 1, 1]);
    });
  });

  describe('readBody', () => {
    const { rules } = rulesCounting();
    const post = (headers: Record<string, string>) => ({ headers }) as unknown as Request;
    it('refuses a media type that is not JSON with 415 before reading anything', async () => {
      await expect(rules.readBody(post({ 'content-type': 'text/plain' }), res)).rejects.toMatchObject({ status: 415 });
      await expect(rules.readBody(post({}), res)).rejects.toMatchObject({ status: 415 });
    });
    it('refuses a Content-Length over the limit with 413 and a closed connection, before reading the body', async () => {
      const announced = post({
        'content-type': 'application/json',
        'content-length': String(MCP_BODY_LIMIT_BYTES + 1),
      });
      await expect(rules.readBody(announced, res)).rejects.toMatchObject({
        status: 413,
        headers: { Connection: 'close' },
      });
    });
  });

  it('nestsDeeperThan reads the depth of arrays and objects from the bytes, not counting brackets in strings', () => {
    const bytes = (text: string) => Buffer.from(text);
    expect(nestsDeeperThan(bytes('"x"'), 0)).toBe(false);
    expect(nestsDeeperThan(bytes('{}'), 0)).toBe(true);
    expect(nestsDeeperThan(bytes('{"a":[1,{"b":2}]}'), 3)).toBe(false);
    expect(nestsDeeperThan(bytes('{"a":[1,{"b":2}]}'), 2)).toBe(true);
    expect(nestsDeeperThan(bytes('[[],[[[]]]]'), 3)).toBe(true);
    expect(nestsDeeperThan(bytes('["[[[[", "\\"]'), 1)).toBe(false);
    expect(nestsDeeperThan(bytes('["\\\"[[[[", {}]'), 1)).toBe(true);
    const deep = '['.repeat(MAX_BODY_DEPTH + 1) + ']'.repeat(MAX_BODY_DEPTH + 1);
    expect(nestsDeeperThan(bytes(deep), MAX_BODY_DEPTH)).toBe(true);
    expect(nestsDeeperThan(bytes(deep.slice(1, -1)), MAX_BODY_DEPTH)).toBe(false);
  });

  it('oversizedParams answers params over the ceiling with -32602 and the caller id, and leaves the rest', () => {
    const search = (query: string) => ({
      jsonrpc: '2.0',
      id: 'q',
      method: 'tools/call',
      params: { name: 'search_guides', arguments: { query } },
    });
    expect(oversizedParams(search('x'.repeat(MAX_PARAMS_BYTES)))).toEqual({
      jsonrpc: '2.0',
      id: 'q',
      error: {
        code: -32602,
        message: `Invalid params for tools/call: params: larger than ${MAX_PARAMS_BYTES} bytes as JSON`,
      },
    });
    expect(oversizedParams(search('nginx'))).toBeUndefined();
    expect(oversizedParams({ ...note, params: { pad: 'x'.repeat(MAX_PARAMS_BYTES) } })).toBeUndefined();
  });

  it('refuseOversizedParams answers an oversized request through the transport and hands the others to the server', async () => {
    const delivered: unknown[] = [];
    const sent: unknown[] = [];
    const transport = {
      onmessage: (message: unknown) => delivered.push(message),
      send: async (message: unknown) => void sent.push(message),
    } as unknown as Transport;
    rulesCounting().rules.refuseOversizedParams(transport);
    const big = {
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/call',
      params: { name: 'x', arguments: { q: 'y'.repeat(MAX_PARAMS_BYTES) } },
    };
    transport.onmessage!(ping(1) as never);
    transport.onmessage!(big as never);
    expect(delivered).toEqual([ping(1)]);
    expect(sent).toEqual([expect.objectContaining({ id: 9, error: expect.objectContaining({ code: -32602 }) })]);
  });

  describe('batchAnswer', () => {
    const { rules } = rulesCounting();
    const answer = (body: unknown, status = 200) => Response.json(body, { status });

    it('answers a batch holding one request with an array of one', async () => {
      const mended = await rules.batchAnswer([note, ping(1)], answer({ jsonrpc: '2.0', id: 1, result: {} }));
      expect(await mended.json()).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
      expect(mended.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('leaves single messages, larger batches and refusals as the SDK wrote them', async () => {
      for (const [body, written] of [
        [ping(1), answer({ jsonrpc: '2.0', id: 1, result: {} })],
        [
          [ping(1), ping(2)],
          answer([
            { jsonrpc: '2.0', id: 1, result: {} },
            { jsonrpc: '2.0', id: 2, result: {} },
          ]),
        ],
        [[ping(1)], answer({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'no' } }, 400)],
      ] as const) {
        expect(await rules.batchAnswer(body, written)).toBe(written);
      }
    });
  });
});
