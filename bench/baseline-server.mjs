// The ceiling: a bare node:http server answering from a table of recorded responses (status, headers,
// body bytes), keyed by method, path, Accept-Encoding, If-None-Match and Accept. Started by bench.mjs with the table on stdin.
import { createServer } from 'node:http';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const table = new Map(
  JSON.parse(Buffer.concat(chunks).toString()).map((r) => [r.key, { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64') }]),
);
const keyOf = (method, url, encoding, ifNoneMatch, accept) => `${method} ${url} ${encoding ?? ''} ${ifNoneMatch ?? ''} ${accept ?? ''}`;

const server = createServer((req, res) => {
  const entry = table.get(keyOf(req.method, req.url, req.headers['accept-encoding'], req.headers['if-none-match'], req.headers.accept));
  if (!entry) {
    res.writeHead(404).end();
    return;
  }
  if (req.method === 'POST') req.resume();
  res.writeHead(entry.status, entry.headers);
  res.end(entry.body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`LISTENING ${server.address().port}`));
