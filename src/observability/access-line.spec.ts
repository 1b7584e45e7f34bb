import pino from 'pino';
import { Writable } from 'node:stream';
import { loadConfig } from '../config/load-config.js';
import { type AccessEntry, accessLine, messageOf, nested } from './access-line.js';
import { jsonLogger } from './logger.js';

/** The service's JSON logger writing each line to `lines` at once (LOG_BUFFER_BYTES=0). */
function captured(env: Record<string, string> = {}) {
  const lines: string[] = [];
  const { logger } = jsonLogger(loadConfig({ LOG_BUFFER_BYTES: '0', ...env }), { write: (bytes: Buffer) => lines.push(bytes.toString()) });
  return { logger, lines };
}

const plain: AccessEntry = { reqId: 'a258600a-4443-4c8d-bef4-f48443a0fa8b', method: 'GET', path: '/api/nothing.json', client: '127.0.0.0/24', status: 404, bytes: 286, durationMs: 4.2, route: 'unmatched' };

/** Entries whose strings and numbers need JSON's care, each beside the plain one. */
const corpus: AccessEntry[] = [
  plain,
  { ...plain, path: '/a"b\\c', route: '/api/providers/:providerId.json', status: 200, bytes: 0, durationMs: 0 },
  { ...plain, path: '/\u0001\u001f\u007f\u00e9\u00ff', client: '2001:db8:1::/48', durationMs: 1234.5 },
  { ...plain, path: '/'.padEnd(200, 'x'), method: 'DELETE', reqId: 'A.b_c:d-9', status: 405 },
  { ...plain, client: undefined, bytes: Number.NaN, durationMs: Number.POSITIVE_INFINITY },
  { ...plain, route: 'route "with" quotes\\ and\na newline', bytes: 12_345_678, durationMs: -0 },
];

describe(accessLine.name, () => {
  let now: jest.SpiedFunction<typeof Date.now>;
  beforeEach(() => {
    now = jest.spyOn(Date, 'now').mockReturnValue(1_795_721_763_233);
  });
  afterEach(() => now.mockRestore());

  it.each(corpus.map((e, i) => [i, e]))('writes entry %i exactly as logger.info would', (_, entry) => {
    const { logger, lines } = captured();
    logger.info(nested(entry), messageOf(entry));
    accessLine(logger)(entry);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe(lines[0]);
    expect(JSON.parse(lines[1])).toMatchObject({ level: 30, service: 'vpsapi', reqId: entry.reqId, req: { method: entry.method, path: entry.path }, route: entry.route });
  });

  it('writes nothing below the configured level', () => {
    const { logger, lines } = captured({ LOG_LEVEL: 'warn' });
    accessLine(logger)(plain);
    expect(lines).toEqual([]);
  });

  it('goes through logger.info for any other destination, with the same line', () => {
    const { logger, lines } = captured();
    accessLine(logger)(plain);
    const written: string[] = [];
    const elsewhere = pino(
      { level: 'info', base: { service: 'vpsapi' } },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          written.push(chunk.toString());
          done();
        },
      }),
    );
    accessLine(elsewhere)(plain);
    expect(written).toEqual(lines);
  });
});
