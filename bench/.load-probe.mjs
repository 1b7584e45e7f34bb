import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
const port = process.argv[2]; const pid = process.argv[3];
const base = `http://127.0.0.1:${port}`;
const rss = () => readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)[1] / 1024 | 0;
const mcp = (name, args, id=1) => ({ method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }) });
const scenarios = [
  { path: '/api/providers.json' }, { path: '/api/providers.json', headers: { 'accept-encoding': 'br' } }, { path: '/api/providers/hetzner.json' }, { path: '/api/guides.json' },
  { path: '/providers/hetzner', headers: { accept: 'text/html' } }, { path: '/wp-login.php', headers: { accept: 'text/html' } },
  mcp('get_vps_provider', { id: 'hetzner' }), mcp('find_vps_plans', { minRamGb: 4 }), mcp('search_guides', { query: 'docker' }),
];
console.log('start', rss());
for (const s of scenarios) {
  await autocannon({ url: base, connections: 50, duration: Number(process.env.SECS ?? 4), requests: [s] });
  console.log(s.path, s.headers?.['accept-encoding'] ?? '', s.body?.slice(60, 90) ?? '', rss());
}
