import { ProvidersService } from '../src/providers/providers.service';
import { logSink } from './support/log-sink';
import { startTestApp } from './support/test-app';

/** Resolves when a log line matching `match` has been written, or rejects after `timeoutMs` (a generous bound on 2 shared cores). */
async function lineWhere(
  lines: () => Record<string, any>[],
  match: (line: Record<string, any>) => boolean,
  timeoutMs = 5000,
): Promise<Record<string, any>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = lines().find(match);
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(`no log line matched within ${timeoutMs} ms: ${JSON.stringify(lines().map((l) => l.msg))}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('one request id end to end', () => {
  it.each([
    ['a client-sent X-Request-Id', 'client-chosen.id-42'],
    ['an id the service assigns', undefined],
  ])(
    'carries %s in the 500, its error log line and the access log line',
    async (_label, sent) => {
      const sink = logSink();
      const t = await startTestApp({ LOG_LEVEL: 'info' }, 0, { log: sink.stream });
      const spy = jest.spyOn(ProvidersService.prototype, 'list').mockImplementation(() => {
        throw new Error('boom');
      });
      try {
        const req = t.http.get('/api/providers.json');
        const res = await (sent ? req.set('X-Request-Id', sent) : req).expect(500);
        const id = res.headers['x-request-id'];
        if (sent) expect(id).toBe(sent);
        else expect(id).toMatch(/^[0-9a-f-]{36}$/);
        expect(res.body.error.resolution).toContain(id);
        const access = await lineWhere(sink.lines, (l) => l.res?.status === 500);
        expect(access.reqId).toBe(id);
        const error = await lineWhere(
          sink.lines,
          (l) => typeof l.msg === 'string' && l.msg.startsWith('Unexpected error'),
        );
        expect(error.reqId).toBe(id);
        expect(error.msg).toContain(id);
        expect(error.err.message).toBe('boom');
      } finally {
        spy.mockRestore();
        await t.close();
      }
    },
    20_000,
  );
});
