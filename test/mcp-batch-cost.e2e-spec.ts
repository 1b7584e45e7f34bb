import { connect, type Socket } from 'node:net';
import { MCP_BODY_LIMIT_BYTES } from '../src/common/http/mcp-path';
import { MAX_BODY_DEPTH, MAX_PARAMS_BYTES } from '../src/mcp/mcp-transport-rules';
import { rawRequest } from './support/raw-request';
import { startTestApp, type TestApp } from './support/test-app';

/**
 * What one client can cost is bounded by its limit: every call of a JSON-RPC batch counts against it,
 * revisions without batches refuse them, one call's params and one batch's answers have a ceiling,
 * and an over-limit client gets its 429 before its body is read.
 */
const MCP = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const search = (id: number, query: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'search_guides', arguments: { query } },
});
const WORDS = [
  'nginx',
  'docker',
  'wireguard',
  'backup',
  'postgres',
  'redis',
  'firewall',
  'minecraft',
  'ssh',
  'swap',
  'kubernetes',
  'mail',
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
/** Milliseconds until `send`'s answer is read in full (it must be a 200). */
async function timed(send: () => Promise<{ status: number }>): Promise<number> {
  const started = process.hrtime.bigint();
  const res = await send();
  expect(res.status).toBe(200);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

describe('MCP batches against the limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '300', TRUST_PROXY: 'loopback' });
  });
  afterAll(() => t.close());

  const post = (client: string, body: unknown, headers: Record<string, string> = {}) =>
    rawRequest(`${t.baseUrl}/mcp`, { ...MCP, 'x-forwarded-for': client, ...headers }, 'POST', {
      data: JSON.stringify(body),
    });

  it('counts every call of a batch, and refuses a batch beyond the remaining quota with the 429', async () => {
    const client = '203.0.113.10';
    const first = await post(client, [search(1, 'nginx'), search(2, 'docker'), search(3, 'ssh')]);
    expect(first.status).toBe(200);
    expect(Number(first.headers['ratelimit-remaining'])).toBe(300 - 3);
    let answered = 3;
    let n = 0;
    for (;;) {
      const batch = Array.from({ length: 100 }, (_, i) => search(i, `${WORDS[(n + i) % WORDS.length]} ${n}-${i}`));
      n++;
      const res = await post(client, batch);
      if (res.status === 429) {
        expect(res.headers['retry-after']).toBeDefined();
        expect(JSON.parse(res.body.toString()).error.code).toEqual(expect.any(Number));
        break;
      }
      expect(res.status).toBe(200);
      answered += (JSON.parse(res.body.toString()) as unknown[]).length;
      expect(n).toBeLessThan(10);
    }
    // 3 + 2 x 100 calls fit in 300; the third batch of 100 does not.
    expect(answered).toBe(203);
    expect(n).toBe(3);
  });

  it('refuses batches under the revisions that removed them, and takes them under 2025-03-26', async () => {
    const client = '203.0.113.12';
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await post(client, [search(1, 'nginx'), search(2, 'ssh')], { 'mcp-protocol-version': version });
      expect(res.status).toBe(400);
      const error = JSON.parse(res.body.toString()).error;
      expect(error.message).toContain(`revision ${version} has no JSON-RPC batches`);
    }
    const old = await post(client, [search(1, 'nginx'), search(2, 'ssh')], { 'mcp-protocol-version': '2025-03-26' });
    expect(old.status).toBe(200);
    expect((JSON.parse(old.body.toString()) as unknown[]).length).toBe(2);
    const single = await post(client, search(3, 'nginx'), { 'mcp-protocol-version': '2025-11-25' });
    expect(single.status).toBe(200);
  });

  it('refuses params over the ceiling with invalid params, and answers the rest of the batch', async () => {
    const res = await post('203.0.113.13', [search(1, 'x'.repeat(MAX_PARAMS_BYTES)), search(2, 'nginx')]);
    expect(res.status).toBe(200);
    const [big, small] = JSON.parse(res.body.toString()) as {
      id: number;
      error?: { code: number; message: string };
      result?: unknown;
    }[];
    expect(big.error).toEqual({
      code: -32602,
      message: expect.stringContaining(`larger than ${MAX_PARAMS_BYTES} bytes`),
    });
    expect(small.result).toBeDefined();
  });
});

describe('MCP batches and other clients', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '100', TRUST_PROXY: 'loopback' });
  });
  afterAll(() => t.close());

  const post = (client: string, body: unknown) =>
    rawRequest(`${t.baseUrl}/mcp`, { ...MCP, 'x-forwarded-for': client }, 'POST', { data: JSON.stringify(body) });

  it("keeps another client's median latency within 3x of its own baseline while one client spends its whole quota on batches", async () => {
    // The victim spreads its requests over addresses of its own, so that its own limit never answers it.
    let sent = 0;
    const victim = () =>
      timed(() =>
        rawRequest(`${t.baseUrl}/api/index.json`, { 'x-forwarded-for': `198.51.100.${Math.floor(sent++ / 90)}` }),
      );
    // Warm: the index document and the tools' first calls are built on first use in test apps.
    await victim();
    await post('203.0.113.30', [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find_vps_plans', arguments: {} } },
      search(2, 'nginx'),
    ]);
    const baseline: number[] = [];
    for (let i = 0; i < 30; i++) baseline.push(await victim());
    // The hog: batches of the costliest uncached calls (no argument to narrow find_vps_plans) and searches,
    // sent back to back until its quota is spent. The victim's samples count only while a batch is in flight.
    const hogClient = '203.0.113.11';
    let inFlight = false;
    let spent = false;
    let answered = 0;
    const hog = (async () => {
      for (let n = 0; ; n++) {
        const batch = Array.from({ length: 25 }, (_, i) =>
          i % 2 === 0
            ? { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'find_vps_plans', arguments: {} } }
            : search(i, `${WORDS[i % WORDS.length]} hog ${n} ${i}`),
        );
        inFlight = true;
        const res = await post(hogClient, batch);
        inFlight = false;
        if (res.status !== 200) break;
        answered += (JSON.parse(res.body.toString()) as unknown[]).length;
      }
      spent = true;
    })();
    const busy: number[] = [];
    while (!spent) {
      const hogBusyAtStart = inFlight;
      const ms = await victim();
      if (hogBusyAtStart && inFlight) busy.push(ms);
    }
    await hog;
    // The hog, a client of its own, got its whole quota of calls answered before its 429.
    expect(answered).toBe(100);
    expect(busy.length).toBeGreaterThanOrEqual(30);
    expect(median(busy)).toBeLessThan(median(baseline) * 3);
  }, 60_000);
});

describe('an over-limit client at /mcp', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '1' });
  });
  afterAll(() => t.close());

  it('gets its 429 before its body is read', async () => {
    await t.http.get('/api/index.json').expect(200);
    const { port } = new URL(t.baseUrl);
    const socket: Socket = connect(Number(port), '127.0.0.1');
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(
        () => reject(new Error(`no answer before the body was sent; got ${JSON.stringify(text)}`)),
        5000,
      );
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
        if (text.includes('\r\n\r\n')) {
          clearTimeout(timer);
          resolve(text);
        }
      });
      socket.on('error', reject);
      // Headers promising 60 000 bytes of body, and no body at all.
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: ${MCP.accept}\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n`,
      );
    });
    socket.destroy();
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 429 Too Many Requests');
    expect(answer.toLowerCase()).toContain('retry-after:');
  });
});

describe('what a body may cost /mcp before it is parsed', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 413 from a Content-Length over the limit without waiting for the body, and closes the connection', async () => {
    const { port } = new URL(t.baseUrl);
    const socket: Socket = connect(Number(port), '127.0.0.1');
    const { answer, closed } = await new Promise<{ answer: string; closed: boolean }>((resolve, reject) => {
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString('latin1')));
      socket.on('close', () => resolve({ answer: text, closed: true }));
      socket.on('error', reject);
      // Headers promising 50 MB of body, and a few bytes of it: the answer must not wait for the rest.
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: ${MCP.accept}\r\nContent-Type: application/json\r\nContent-Length: 52428800\r\n\r\n[[[`,
      );
    });
    expect(closed).toBe(true);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      error: {
        code: -32600,
        data: { status: 413, resolution: `Send a body of at most ${MCP_BODY_LIMIT_BYTES / 1024} KiB.` },
      },
    });
  });

  it('refuses a body nested deeper than the limit from its bytes, without JSON.parse reading it', async () => {
    const depth = MCP_BODY_LIMIT_BYTES / 2 - 1;
    const body = '['.repeat(depth) + ']'.repeat(depth);
    const parse = jest.spyOn(JSON, 'parse');
    try {
      const res = await rawRequest(`${t.baseUrl}/mcp`, MCP, 'POST', { data: body });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body.toString()).error.message).toContain(`nests more than ${MAX_BODY_DEPTH} levels`);
      expect(parse.mock.calls.filter(([text]) => typeof text === 'string' && text.length >= body.length)).toEqual([]);
    } finally {
      parse.mockRestore();
    }
  });

  it('takes the largest legitimate request: a batch of 100 ordinary calls, one with params at their ceiling', async () => {
    const batch = Array.from({ length: 99 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'get_vps_provider', arguments: { id: ['hetzner', 'vultr', 'linode'][i % 3] } },
    }));
    batch.push({
      ...batch[0],
      id: 99,
      params: { name: 'get_vps_provider', arguments: { id: 'x'.repeat(MAX_PARAMS_BYTES - 100) } },
    });
    const data = JSON.stringify(batch);
    expect(Buffer.byteLength(data)).toBeLessThanOrEqual(MCP_BODY_LIMIT_BYTES);
    const res = await rawRequest(`${t.baseUrl}/mcp`, MCP, 'POST', { data });
    expect(res.status).toBe(200);
    const answers = JSON.parse(res.body.toString()) as { result?: { isError?: boolean } }[];
    expect(answers.filter((answer) => answer.result && !answer.result.isError)).toHaveLength(99);
    expect(answers[99].result?.isError).toBe(true);
  }, 60_000);
});
