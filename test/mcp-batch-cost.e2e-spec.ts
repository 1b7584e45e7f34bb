import { connect, type Socket } from 'node:net';
import { MAX_PARAMS_BYTES } from '../src/mcp/mcp-transport-rules';
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

  it("leaves another client's latency alone while one client spends its whole quota on batches", async () => {
    const timeIndex = async () => {
      const started = process.hrtime.bigint();
      const res = await rawRequest(`${t.baseUrl}/api/index.json`, { 'x-forwarded-for': '198.51.100.20' });
      expect(res.status).toBe(200);
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const idle: number[] = [];
    for (let i = 0; i < 15; i++) idle.push(await timeIndex());
    let stop = false;
    let calls = 0;
    const hog = (async () => {
      for (let n = 0; !stop && n < 20; n++) {
        const res = await post(
          '203.0.113.11',
          Array.from({ length: 100 }, (_, i) => search(i, `${WORDS[i % WORDS.length]} hog ${n} ${i}`)),
        );
        if (res.status !== 200) break;
        calls += 100;
      }
    })();
    const busy: number[] = [];
    for (let i = 0; i < 15; i++) busy.push(await timeIndex());
    stop = true;
    await hog;
    // The hog got at most its quota of calls answered.
    expect(calls).toBeLessThanOrEqual(300);
    // Generous on a shared 2-core machine: before batches were counted, the median rose 70-fold.
    expect(median(busy)).toBeLessThan(median(idle) * 10 + 50);
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
