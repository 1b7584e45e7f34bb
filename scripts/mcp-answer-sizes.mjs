// Prints the characters a client receives for tools/list (its tools as JSON) and for each tool's default
// answer (its text content), with the calls of the budget table in docs/mcp.md. Run after `npm run build`:
//   node scripts/mcp-answer-sizes.mjs [extra.json]
// where extra.json, if given, is an array of { "tool": name, "args": {...} } to measure as well.
import { readFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createApp } from '../dist/app.factory.js';
import { loadConfig } from '../dist/config/load-config.js';

const doc = readFileSync(new URL('../docs/mcp.md', import.meta.url), 'utf8');
const section = doc.split(/^#+ Answer sizes$/m)[1]?.split(/^#/m)[0] ?? '';
let rows = [...section.matchAll(/^\| `([a-z_/]+)` \| (?:`(\{.*\})`|-) \| ([\d,]+) \|/gm)].map((m) => ({
  tool: m[1],
  args: m[2] === undefined ? null : JSON.parse(m[2]),
  budget: Number(m[3].replace(/,/g, '')),
}));
if (process.argv[3] === "only") rows = [];
if (process.argv[2]) rows.push(...JSON.parse(readFileSync(process.argv[2], 'utf8')));

const config = loadConfig({
  PUBLIC_BASE_URL: 'https://vpsapi.test',
  METRICS_PORT: '0',
  METRICS_HOST: '127.0.0.1',
  DATA_WATCH: 'false',
  RATE_LIMIT_REQUESTS: '100000',
});
const { app, server } = await createApp(config, { log: 'silent' });
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;
const client = new Client({ name: 'sizes', version: '1' });
await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
for (const row of rows) {
  let size;
  if (row.tool === 'tools/list') {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    size = JSON.stringify((await res.json()).result.tools).length;
  } else {
    const result = await client.callTool({ name: row.tool, arguments: row.args ?? {} });
    size = `${result.content[0].text.length}${result.isError ? ` (isError) ${result.content[0].text.slice(0, 300)}` : ""}`;
  }
  if (process.env.SHOW) { const r = row.tool === "tools/list" ? null : await client.callTool({ name: row.tool, arguments: row.args ?? {} }); if (r) console.log(r.content[0].text); }
  console.log(`${row.tool}\t${JSON.stringify(row.args ?? {})}\t${size}${row.budget ? `\t(budget ${row.budget})` : ''}`);
}
await client.close();
server.close();
await app.close();
process.exit(0);
