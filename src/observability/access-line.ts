/** What one access line says about a request (see requestObserver). */
export interface AccessEntry {
  reqId: string;
  method: string;
  path: string;
  /** The client's network (truncatedAddress), when known. */
  client: string | undefined;
  status: number;
  bytes: number;
  durationMs: number;
  route: string;
}

/** The line's message: `GET /api/providers/:providerId.json 200`. */
export const accessMessage = (e: AccessEntry): string => `${e.method} ${e.route} ${e.status}`;

/** The object the logger is given for an access line: `logger.info(accessObject(e), accessMessage(e))`. */
export const accessObject = (e: AccessEntry) => ({
  reqId: e.reqId,
  req: { method: e.method, path: e.path, client: e.client },
  res: { status: e.status, bytes: e.bytes },
  durationMs: e.durationMs,
  route: e.route,
});

/** A number as JSON writes it (null when not finite). */
const num = (n: number) => (Number.isFinite(n) ? String(n) : 'null');
const str = JSON.stringify;

/**
 * The access line of an info-level entry as pino writes `logger.info(accessObject(e), accessMessage(e))`
 * for the service's JSON logger (level 30, epoch time, the `base` bindings), byte for byte
 * (access-line.spec.ts compares the two over a corpus), but in one template: pino's general serializer
 * walks the object and writes its nested members through a circular-safe stringify, which in the
 * benchmark's 304 and 404 rows was a third of the cost of the line (docs/performance.md).
 * `bindings` is the JSON of the base bindings without braces, e.g. `"service":"vpsapi"`.
 */
export function accessLine(e: AccessEntry, time: number, bindings: string): string {
  const client = e.client === undefined ? '' : `,"client":${str(e.client)}`;
  return (
    `{"level":30,"time":${time},${bindings},"reqId":${str(e.reqId)},"req":{"method":${str(e.method)},"path":${str(e.path)}${client}},` +
    `"res":{"status":${num(e.status)},"bytes":${num(e.bytes)}},"durationMs":${num(e.durationMs)},"route":${str(e.route)},"msg":${str(accessMessage(e))}}\n`
  );
}
