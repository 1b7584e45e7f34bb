import fc from 'fast-check';
import http from 'node:http';
import { FUZZ_RUNS, FUZZ_SEED } from './support/fuzz-settings';
import { startTestApp, type TestApp } from './support/test-app';
import { scaled } from './support/time';

const TOOLS = [
  'list_vps_providers',
  'get_vps_provider',
  'find_vps_plans',
  'recommend_vps_for_workload',
  'search_guides',
  'get_guide',
];

/** POSTs a raw body to /mcp and returns status, body and how long it took. */
function post(t: TestApp, body: string): Promise<{ status: number; body: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${t.baseUrl}/mcp`,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (data += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: data, ms: Date.now() - started }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * How long a hostile payload may hold its request. Normal answers take milliseconds to a few hundred
 * on two cores shared with other suites; the bound is there to catch a hang or a super-linear blow-up
 * (a regex backtracking, a quadratic walk), which take far longer, not to measure speed.
 */
const HOSTILE_ANSWER_MS = 15_000;
/** A test that waits for one hostile answer: the answer's bound plus booting and reading. */
const ONE_ANSWER_TEST_MS = HOSTILE_ANSWER_MS + 15_000;

/** Every answer is a JSON-RPC error, an isError result, or a result; never a 5xx; always in bounded time. */
function expectWellFormed(answer: { status: number; body: string; ms: number }): void {
  expect(answer.status).toBeLessThan(500);
  expect(answer.ms).toBeLessThan(HOSTILE_ANSWER_MS);
  if (answer.status === 202 || answer.body === '') return; // a notification has no answer
  const parsed = JSON.parse(answer.body);
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    expect(message.jsonrpc).toBe('2.0');
    expect('result' in message || 'error' in message).toBe(true);
    if (message.error) expect(Number.isInteger(message.error.code)).toBe(true);
  }
}

const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const hostileArgument = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.constantFrom('.*(a+)+$', '[ssh', '\\u0000', '(?<=x)', 'x'.repeat(200_000), '🦄'.repeat(1000)),
  fc.dictionary(
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'query', 'slug', 'limit', 'polluted'),
    fc.jsonValue({ maxDepth: 2 }),
  ),
);

describe('hostile MCP payloads (property-based)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '1000000' });
  });
  afterAll(() => t.close());

  it(
    'answers generated tools/call messages with a JSON-RPC error or an isError result, never 5xx',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...TOOLS, 'nope', '', '__proto__'),
          fc.oneof(
            fc.dictionary(
              fc.constantFrom(
                'id',
                'query',
                'slug',
                'workload',
                'sortBy',
                'minRamGb',
                'currency',
                'providers',
                'limit',
                'offset',
                'maxChars',
                '__proto__',
                'constructor',
                'extra',
              ),
              hostileArgument,
            ),
            hostileArgument,
          ),
          fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), fc.constant(null), fc.double()),
          async (name, args, id) => {
            const body = JSON.stringify({
              jsonrpc: '2.0',
              id,
              method: 'tools/call',
              params: { name, arguments: args },
            });
            expectWellFormed(await post(t, body));
          },
        ),
        { numRuns: FUZZ_RUNS, seed: FUZZ_SEED },
      );
    },
    scaled(180_000),
  );

  it(
    'answers malformed envelopes, versions, ids, methods and batches without 5xx',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string({ maxLength: 200 }),
            fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
            fc
              .record(
                {
                  jsonrpc: fc.constantFrom('2.0', '1.0', 2, null, ''),
                  id: fc.jsonValue({ maxDepth: 1 }),
                  method: fc.constantFrom(
                    'initialize',
                    'tools/list',
                    'tools/call',
                    'resources/read',
                    'completion/complete',
                    'ping',
                    'x/y',
                    '',
                  ),
                  params: fc.jsonValue({ maxDepth: 3 }),
                },
                { requiredKeys: [] },
              )
              .map((m) => JSON.stringify(m)),
            fc
              .array(fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(), method: fc.constant('ping') }), {
                maxLength: 50,
              })
              .map((b) => JSON.stringify(b)),
          ),
          async (body) => {
            const answer = await post(t, body);
            expect(answer.status).toBeLessThan(500);
            expect(answer.ms).toBeLessThan(HOSTILE_ANSWER_MS);
          },
        ),
        { numRuns: FUZZ_RUNS, seed: FUZZ_SEED },
      );
    },
    scaled(180_000),
  );

  it.each([
    [
      'a large batch',
      JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }))),
    ],
    [
      'deeply nested arguments',
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_guides","arguments":{"query":${deep(5000)}}}}`,
    ],
    [
      'a 200 KB query',
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_guides', arguments: { query: 'a'.repeat(200_000) } },
      }),
    ],
  ])(
    'answers %s without 5xx',
    async (_name, body) => {
      const answer = await post(t, body);
      expect(answer.status).toBeLessThan(500);
      expect(answer.ms).toBeLessThan(HOSTILE_ANSWER_MS);
    },
    ONE_ANSWER_TEST_MS,
  );

  it(
    'answers a body over the 64 KiB limit with 413 and the JSON-RPC error envelope',
    async () => {
      const answer = await post(
        t,
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(1_200_000) } }),
      );
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toEqual({
        jsonrpc: '2.0',
        error: {
          code: -32600,
          message: 'The request body is too large.',
          data: { status: 413, code: 'payload_too_large', resolution: 'Send a body of at most 64 KiB.' },
        },
        id: null,
      });
      expect(answer.ms).toBeLessThan(HOSTILE_ANSWER_MS);
    },
    ONE_ANSWER_TEST_MS,
  );

  it('leaves no trace on Object.prototype', async () => {
    await post(
      t,
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"find_vps_plans","arguments":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}}}',
    );
    await post(t, '{"__proto__":{"polluted":"yes"},"jsonrpc":"2.0","id":2,"method":"ping"}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    const ok = await post(
      t,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'get_vps_provider', arguments: { id: 'vultr' } },
      }),
    );
    expect(JSON.parse(ok.body).result.structuredContent.provider.id).toBe('vultr');
  });
});
