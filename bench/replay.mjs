// What the benchmark's replaying servers share (baseline-server.mjs and the two floors): the table of
// recorded answers bench.mjs writes to their standard input, the key an answer is found by, and how a
// Nest floor listens.

/** The recorded answers, by key: status, headers and body bytes. */
export async function readTable() {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  return new Map(
    JSON.parse(Buffer.concat(chunks).toString()).map((r) => [
      r.key,
      { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64') },
    ]),
  );
}

/**
 * The key of the recorded answer to a request (or to a scenario, for bench.mjs's table): method, target,
 * and the headers that choose the answer, by their lowercase names.
 */
export const keyOf = (req) =>
  `${req.method} ${req.url} ${req.headers['accept-encoding'] ?? ''} ${req.headers['if-none-match'] ?? ''} ${req.headers.accept ?? ''}`;

/**
 * Starts a Nest floor on a free loopback port with the service's Express settings that touch every
 * answer (no Express ETag, no X-Powered-By) and prints the port, before any access line, for bench.mjs.
 */
export async function listenFloor(app) {
  const express = app.getHttpAdapter().getInstance();
  express.set('etag', false);
  express.disable('x-powered-by');
  const server = await app.listen(0, '127.0.0.1');
  server.keepAliveTimeout = 65_000;
  console.log(`LISTENING ${server.address().port}`);
}
