import pino from 'pino';
import { accessLine, accessMessage, accessObject, type AccessEntry } from './access-line';

/** What pino itself writes for `logger.info(accessObject(e), accessMessage(e))` with the service's options. */
function pinoLine(e: AccessEntry, time: number): string {
  const lines: string[] = [];
  const now = jest.spyOn(Date, 'now').mockReturnValue(time);
  try {
    pino({ level: 'info', base: { service: 'vpsapi' } }, { write: (line: string) => void lines.push(line) }).info(accessObject(e), accessMessage(e));
  } finally {
    now.mockRestore();
  }
  return lines.join('');
}

const base: AccessEntry = { reqId: 'c8cafcf2-990a-44f6-a3fa-c274d5964946', method: 'GET', path: '/api/nothing.json', client: '203.0.113.0/24', status: 404, bytes: 286, durationMs: 0.3, route: 'unmatched' };

describe('accessLine', () => {
  it.each<[string, Partial<AccessEntry>]>([
    ['a 404', {}],
    ['no client', { client: undefined }],
    ['an IPv6 network', { client: '2001:db8:abcd::/48' }],
    ['quotes, backslashes and control characters', { path: '/a"b\\c\u0001\n\t', reqId: 'id"x' }],
    ['non-ASCII, U+2028 and a lone surrogate', { path: '/guides/caf\u00e9\u2028\ud800', route: '/guides/:slug' }],
    ['a HEAD revalidation', { method: 'HEAD', status: 304, bytes: 0, route: '/api/providers.json' }],
    ['numbers JSON cannot write', { bytes: Number.NaN, durationMs: Number.POSITIVE_INFINITY }],
    ['a large duration and size', { bytes: 4_194_304, durationMs: 123456.7 }],
  ])('writes %s byte for byte as pino does', (_, change) => {
    const e = { ...base, ...change };
    const time = 1_795_776_191_691;
    const expected = pinoLine(e, time);
    expect(expected.length).toBeGreaterThan(0);
    expect(accessLine(e, time, '"service":"vpsapi"')).toBe(expected);
  });
});
