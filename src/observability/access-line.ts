import pino, { type Logger } from 'pino';
import { GatheredLines } from './gathered-lines.js';

/** What one access line says about a request (see requestObserver). */
export interface AccessEntry {
  reqId: string;
  method: string;
  path: string;
  client: string | undefined;
  status: number;
  bytes: number;
  durationMs: number;
  route: string;
}

/** Writes one info-level access line. */
export type AccessLine = (entry: AccessEntry) => void;

type PinoInternals = Logger & {
  [key: symbol]: unknown;
};

/**
 * The access line as the logger itself would write it with
 * `logger.info({ reqId, req: { method, path, client }, res: { status, bytes }, durationMs, route }, msg)`,
 * byte for byte (access-line.spec.ts compares the two), but built in one template: pino's general
 * serializer walks the object, and its nested members through a circular-safe stringify (a 404 at the
 * door took 26.7 µs of CPU that way, 25.5 this way, in `npm run bench -- --only 404`). The level
 * prefix, time and bindings are the logger's own.
 *
 * Only for the service's own JSON logger (createLogger: no serializers, hooks or formatters, lines
 * gathered by GatheredLines); any other logger (pretty output, a test's stream) gets `logger.info`.
 */
export function accessLine(logger: Logger): AccessLine {
  const internals = logger as PinoInternals;
  const { streamSym, lsCacheSym, timeSym, chindingsSym, endSym } = pino.symbols;
  const stream = internals[streamSym];
  const info = logger.levels.values.info;
  if (!(stream instanceof GatheredLines) || !logger.isLevelEnabled('info')) {
    return (e) => logger.info(nested(e), messageOf(e));
  }
  const head = (internals[lsCacheSym] as Record<number, string>)[info];
  const time = internals[timeSym] as () => string;
  const bindings = internals[chindingsSym] as string;
  const end = internals[endSym] as string;
  return (e) => {
    const client = e.client === undefined ? '' : `,"client":${JSON.stringify(e.client)}`;
    stream.write(
      `${head}${time()}${bindings},"reqId":${JSON.stringify(e.reqId)},"req":{"method":${JSON.stringify(e.method)},"path":${JSON.stringify(e.path)}${client}},` +
        `"res":{"status":${e.status},"bytes":${finite(e.bytes)}},"durationMs":${finite(e.durationMs)},"route":${JSON.stringify(e.route)},"msg":${JSON.stringify(messageOf(e))}${end}`,
    );
  };
}

/** A number as JSON writes it: null when it is not finite. */
const finite = (n: number) => (Number.isFinite(n) ? n : null);

/** The object the access line logs, as pino is given it. */
export function nested(e: AccessEntry) {
  return { reqId: e.reqId, req: { method: e.method, path: e.path, client: e.client }, res: { status: e.status, bytes: e.bytes }, durationMs: e.durationMs, route: e.route };
}

export function messageOf(e: AccessEntry): string {
  return `${e.method} ${e.route} ${e.status}`;
}
