// The ceiling: a bare node:http server answering from a table of recorded responses (status, headers,
// body bytes), keyed by method, path, Accept-Encoding, If-None-Match and Accept. Started by bench.mjs with the table on stdin.
import { createServer } from 'node:http';
import { keyOf, readTable } from './replay.mjs';

const table = await readTable();

const server = createServer((req, res) => {
  const entry = table.get(keyOf(req));
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
