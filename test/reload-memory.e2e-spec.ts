import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import type { Readable } from 'node:stream';
import { productionNodeArgs, productionRuntimeEnv } from '../scripts/production-node-options.mjs';
import { copyData } from './support/operations';
import { freePort } from './support/redis-server';

/**
 * A dataset reload under full caches, in the built service run as the Deployment runs it (its heap
 * ceiling in NODE_OPTIONS, the image's node flags): every cache is filled by ordinary requests, then the
 * dataset is reloaded with SIGHUP, three times over, while the old version still serves. The process
 * must survive each reload and serve the new version.
 */
const MCP = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

type Child = ChildProcessByStdio<null, Readable, Readable>;

/** A GET or POST over a keep-alive agent; resolves with the status and the body. */
function send(
  agent: Agent,
  port: number,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: body === undefined ? 'GET' : 'POST', headers, agent },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs `count` requests made by `make`, `parallel` at a time; returns their statuses. */
async function flood(count: number, parallel: number, make: (i: number) => Promise<{ status: number }>) {
  const statuses: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) statuses.push((await make(next++)).status);
    }),
  );
  return statuses;
}

/** Resolves when the child prints a line containing `text` (counting from now), rejects if it exits first. */
function printed(child: Child, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      if (!String(chunk).includes(text)) return;
      cleanup();
      resolve();
    };
    const onExit = (code: number | null, signal: string | null) => {
      cleanup();
      reject(new Error(`the service exited (code ${code}, signal ${signal}) before printing "${text}"`));
    };
    const cleanup = () => {
      child.stdout.off('data', onData);
      child.off('exit', onExit);
    };
    child.stdout.on('data', onData);
    child.once('exit', onExit);
  });
}

describe('a dataset reload under full caches, with the heap the Deployment gives', () => {
  it('survives three reloads by SIGHUP with every cache full, and serves the new version', async () => {
    const dir = await copyData();
    const port = await freePort();
    const runtime = productionRuntimeEnv();
    expect(runtime.NODE_OPTIONS).toMatch(/--max-old-space-size=\d+/);
    const child: Child = spawn('node', [...productionNodeArgs(), 'dist/main.js'], {
      env: {
        ...process.env,
        ...runtime,
        PORT: String(port),
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
        DATA_DIR: dir,
        DATA_WATCH: 'false',
        LOG_LEVEL: 'info',
        RATE_LIMIT_REQUESTS: '1000000',
        TRUST_PROXY: 'loopback',
        SHUTDOWN_DELAY_MS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr = (stderr + String(chunk)).slice(-4000)));
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    try {
      await printed(child, 'listening on');
      // The remembered MCP answers, past their byte budget (MCP_ANSWER_CACHE_BYTES, 8 MiB by default):
      // large answers (every provider, once per distinct Accept value, which is part of the key) until the
      // answers sent add up to more than the budget, then small ones (unknown guides), which cost the most
      // heap for what they hold. Each call from a client of its own (one client's calls run one at a time).
      const mcp = (i: number, accept = MCP.accept) => ({
        ...MCP,
        accept,
        'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      });
      const rpc = (i: number, name: string, args: Record<string, unknown>) =>
        JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name, arguments: args } });
      const call = (i: number) => rpc(i, 'get_guide', { slug: `no-such-guide-${i}` });
      let answered = 0;
      for (let calls = 0; answered < 10 * 1024 * 1024; calls += 20) {
        const large = await flood(20, 4, (i) =>
          send(
            agent,
            port,
            '/mcp',
            mcp(calls + i, `${MCP.accept}, x-fill/${calls + i}`),
            rpc(i, 'list_vps_providers', {}),
          ).then((res) => {
            answered += Buffer.byteLength(res.body);
            return res;
          }),
        );
        expect(large.filter((status) => status !== 200)).toEqual([]);
      }
      const small = await flood(3000, 8, (i) => send(agent, port, '/mcp', mcp(i), call(i)));
      expect(small.filter((status) => status !== 200)).toEqual([]);
      // The negotiation caches: distinct Accept and Accept-Encoding values, and Host values at /mcp.
      const headerValues = await flood(600, 8, (i) =>
        send(agent, port, i % 2 ? '/' : '/api/index.json', {
          accept: `text/html;q=0.${i % 9}, text/markdown;q=0.5, application/x-${i}-${'a'.repeat(400)}`,
          'accept-encoding': `gzip;q=0.${i % 9}, br, x-${i}-${'e'.repeat(150)}`,
        }),
      );
      expect(headerValues.filter((status) => status >= 500)).toEqual([]);
      await flood(100, 8, (i) => send(agent, port, '/mcp', { ...mcp(i), host: `h${i}.example` }, call(i)));

      for (let reload = 1; reload <= 3; reload++) {
        const reloaded = printed(child, 'Reloaded dataset');
        child.kill('SIGHUP');
        // Traffic goes on while the new version is read and built.
        const during = flood(200, 4, (i) => send(agent, port, '/mcp', mcp(i), call(100_000 * reload + i)));
        await reloaded;
        expect((await during).filter((status) => status !== 200)).toEqual([]);
      }
      const index = await send(agent, port, '/api/index.json', {});
      expect(index.status).toBe(200);
      expect(child.exitCode).toBeNull();
    } catch (error) {
      throw new Error(`${(error as Error).message}\nstderr of the service:\n${stderr}`);
    } finally {
      agent.destroy();
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
