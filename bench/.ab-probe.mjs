import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
const [port, pid] = process.argv.slice(2);
const cpu = () => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const mcp = (name, args) => ({ method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }) });
const runs = { 'hetzner.json': { path: '/api/providers/hetzner.json' }, 'mcp get': mcp('get_vps_provider', { id: 'hetzner' }), 'mcp find': mcp('find_vps_plans', {}), '404 page': { path: '/wp-login.php', headers: { accept: 'text/html' } } };
for (const [name, req] of Object.entries(runs)) {
  await autocannon({ url: `http://127.0.0.1:${port}`, connections: 10, duration: 1, requests: [req] });
  const c0 = cpu();
  const r = await autocannon({ url: `http://127.0.0.1:${port}`, connections: 50, duration: Number(process.env.SECS ?? 6), requests: [req] });
  const used = cpu() - c0;
  console.log(name.padEnd(14), 'req/s', Math.round(r.requests.average), 'cpu µs/req', ((used * 1000) / r.requests.total).toFixed(1), 'non2xx', r.non2xx);
}
