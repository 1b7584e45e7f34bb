import { logSink } from './support/log-sink';
import { startTestApp, type TestApp } from './support/test-app';

describe('logs', () => {
  let t: TestApp;
  const sink = logSink();
  beforeAll(async () => {
    t = await startTestApp({}, 0, { log: sink.stream });
  });
  afterAll(() => t.close());
  const lineFor = (id: string) => sink.waitForLine((l) => l.reqId === id && l.res);

  it('writes one line per request with the request id from the header, route template, status, duration and bytes', async () => {
    const res = await t.http.get('/api/providers/hetzner.json?secret=1').set('X-Request-Id', 'trace-42').expect(200);
    expect(res.headers['x-request-id']).toBe('trace-42');
    const line = await lineFor('trace-42');
    expect(line).toMatchObject({
      level: 30,
      reqId: 'trace-42',
      route: '/api/providers/:providerId.json',
      req: { method: 'GET', path: '/api/providers/hetzner.json', client: '127.0.0.0/24' },
      res: { status: 200, bytes: Number(res.headers['content-length']) },
    });
    expect(typeof line.durationMs).toBe('number');
    expect(JSON.stringify(line)).not.toMatch(/secret|127\.0\.0\.1|user-agent/i);
    // Lines are written in order: once a later request's line is there, a second line for this one would be too.
    await t.http.get('/api/index.json').set('X-Request-Id', 'trace-43').expect(200);
    await lineFor('trace-43');
    expect(sink.lines().filter((l) => l.reqId === 'trace-42' && l.res)).toHaveLength(1);
  });

  it('replaces a malformed request id with a generated one', async () => {
    const res = await t.http.get('/api/index.json').set('X-Request-Id', 'bad id with spaces <and> more');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const long = await t.http.get('/api/index.json').set('X-Request-Id', 'x'.repeat(65));
    expect(long.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs requests answered before routing (404, 429) too, with a bounded route label', async () => {
    const res = await t.http.get('/no/such/path').set('X-Request-Id', 'trace-404').expect(404);
    expect(res.headers['x-request-id']).toBe('trace-404');
    expect(await lineFor('trace-404')).toMatchObject({ route: 'unmatched', res: { status: 404 } });
  });
});
