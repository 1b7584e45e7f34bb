import { Socket } from 'node:net';
import { logSink } from './support/log-sink';
import { metric, scrape } from './support/operations';
import { rawRequest } from './support/raw-request';
import { startTestApp, type TestApp } from './support/test-app';
import { scaled } from './support/time';

/** Everything the server sends on one connection for `payload`, until it closes the connection. */
function exchange(t: TestApp, payload: string, keepOpen = false): Promise<string> {
  const { port } = new URL(t.baseUrl);
  return new Promise((resolve) => {
    const socket = new Socket();
    let data = '';
    socket.setTimeout(8000, () => socket.destroy());
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('close', () => resolve(data));
    socket.on('error', () => undefined);
    socket.connect(Number(port), '127.0.0.1', () => (keepOpen ? socket.write(payload) : socket.end(payload)));
  });
}

/** The status codes of every response in a connection's bytes, in order. */
const statuses = (reply: string) =>
  [...reply.matchAll(/(?:^|\r\n\r\n|\})HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

/** The RateLimit-Remaining of a plain request now. */
const remaining = async (t: TestApp) =>
  Number((await rawRequest(`${t.baseUrl}/api/index.json`, {})).headers['ratelimit-remaining']);

describe('requests refused by Node’s HTTP parser', () => {
  let t: TestApp;
  const sink = logSink();
  beforeAll(async () => {
    // The shortest headers timeout the configuration allows, so the 408 case takes about two seconds.
    t = await startTestApp({ RATE_LIMIT_REQUESTS: '1000', HEADERS_TIMEOUT_MS: '1000' }, 0, { log: sink.stream });
    // The document is built, so the GET below is answered as soon as Nest has it.
    await rawRequest(`${t.baseUrl}/api/index.json`, {});
  });
  afterAll(() => t.close());

  it('answers a GET whose chunked body turns out malformed once, and counts it once', async () => {
    const before = await remaining(t);
    const reply = await exchange(
      t,
      'GET /api/index.json HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nnot a chunk\r\n\r\n',
    );
    // Whether the document is answered before the parser reaches the broken chunk (200) or the break
    // comes first (400) depends on when the bytes arrive; either way: one answer on the connection.
    expect(statuses(reply)).toHaveLength(1);
    expect([200, 400]).toContain(statuses(reply)[0]);
    // The request itself, then this one: two counts, not three.
    expect(await remaining(t)).toBe(before - 2);
  });

  it('answers a POST whose chunked body breaks before anything answered it once, with one access line', async () => {
    const before = await remaining(t);
    const lines = sink.lines().length;
    const reply = await exchange(
      t,
      'POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"jso\r\nzz\r\n',
      true,
    );
    expect(statuses(reply)).toEqual([400]);
    expect(await remaining(t)).toBe(before - 2);
    const id = /\r\nX-Request-Id: ([0-9a-f-]{36})(\r\n|$)/i.exec(reply)?.[1];
    await sink.waitForLine((l) => l.reqId === id);
    expect(
      sink
        .lines()
        .slice(lines)
        .filter((l) => l.res && l.req.path === '/mcp'),
    ).toHaveLength(1);
  });

  it('answers a malformed request that follows an answered one on the same connection after that answer', async () => {
    const reply = await exchange(
      t,
      'GET /api/index.json HTTP/1.1\r\nHost: x\r\n\r\nGET /api/index.json HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
    );
    expect(statuses(reply)).toEqual([200, 400]);
  });

  // Node gives the bytes it was parsing with a parser error, not with a timeout: the method and path are
  // logged when the parser read a request line, `-` otherwise.
  const cases: [string, number, string, boolean, string, string][] = [
    [
      'a malformed header line',
      400,
      'GET /api/index.json?q=1 HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      false,
      'GET',
      '/api/index.json',
    ],
    ['headers too large', 431, `GET /big HTTP/1.1\r\n${'X-Big: y\r\n'.repeat(5000)}\r\n`, false, 'GET', '/big'],
    ['headers that never finish', 408, 'GET /api/index.json HTTP/1.1\r\nHost: x\r\n', true, '-', '-'],
  ];
  it.each(cases)(
    'answers %s with %i in the envelope, counted, with one access line and one metrics sample',
    async (_name, status, payload, keepOpen, method, path) => {
      const series = `http_requests_total{method="${method}",route="unmatched",status="${status}"}`;
      const samplesBefore = metric(await scrape(t), series);
      const before = await remaining(t);
      const linesBefore = sink.lines().filter((l) => l.res?.status === status).length;

      const reply = await exchange(t, payload, keepOpen);
      expect(statuses(reply)).toEqual([status]);
      const head = reply.slice(0, reply.indexOf('\r\n\r\n'));
      const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4));
      expect(body.error).toMatchObject({ status });
      expect(head).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/i);
      expect(head.toLowerCase()).toContain(
        `\r\ncontent-length: ${Buffer.byteLength(reply.slice(reply.indexOf('\r\n\r\n') + 4))}\r\n`,
      );
      expect(head).toMatch(/\r\nConnection: close(\r\n|$)/i);
      expect(head).toMatch(/\r\nAccess-Control-Allow-Origin: \*\r\n/i);
      expect(head).toMatch(/\r\nRateLimit-Remaining: \d+\r\n/i);
      const id = /\r\nX-Request-Id: ([0-9a-f-]{36})(\r\n|$)/i.exec(head)?.[1];
      expect(id).toBeDefined();
      // Counted once: the refused request and the probe after it.
      expect(await remaining(t)).toBe(before - 2);

      const line = await sink.waitForLine((l) => l.reqId === id);
      expect(line).toMatchObject({
        level: 30,
        route: 'unmatched',
        req: { method, path, client: '127.0.0.0/24' },
        res: { status, bytes: Buffer.byteLength(reply.slice(reply.indexOf('\r\n\r\n') + 4)) },
      });
      expect(sink.lines().filter((l) => l.res?.status === status)).toHaveLength(linesBefore + 1);
      expect(metric(await scrape(t), series) - samplesBefore).toBe(1);
    },
    scaled(15_000),
  );
});
