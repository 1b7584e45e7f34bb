import { spawn } from 'node:child_process';
import http from 'node:http';
import { freePort } from './support/redis-server';

interface Outcome {
  status?: number;
  retryAfter?: string;
  connection?: string;
  error?: string;
}

/** One GET on a keep-alive agent. */
function get(agent: http.Agent, port: number, path: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode, retryAfter: res.headers['retry-after'], connection: res.headers.connection }),
      );
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
  });
}

describe('graceful shutdown of the built service under load', () => {
  it('stops being ready at once, keeps serving, drains, fails no accepted request and exits 0 in time', async () => {
    const port = await freePort();
    const delayMs = 1500;
    const timeoutMs = 3000;
    const child = spawn('node', ['dist/main.js'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
        SHUTDOWN_DELAY_MS: String(delayMs),
        SHUTDOWN_TIMEOUT_MS: String(timeoutMs),
        RATE_LIMIT_REQUESTS: '1000000',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => String(d).includes('listening on') && resolve());
      child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
    });

    const outcomes: Outcome[] = [];
    let signalledAt = 0;
    let stop = false;
    const clients = Array.from({ length: 6 }, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      while (!stop) {
        const outcome = await get(agent, port, '/api/providers.json');
        outcomes.push(outcome);
        if (outcome.error === 'ECONNREFUSED') break;
      }
      agent.destroy();
    });

    await new Promise((r) => setTimeout(r, 500));
    const before = outcomes.length;
    signalledAt = Date.now();
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    const readiness = await get(new http.Agent(), port, '/readyz');
    const stillServing = await get(new http.Agent(), port, '/api/index.json');

    const code = await exited;
    const tookMs = Date.now() - signalledAt;
    stop = true;
    await Promise.all(clients);

    expect(readiness.status).toBe(503);
    expect(stillServing.status).toBe(200);
    expect(before).toBeGreaterThan(10);
    expect(code).toBe(0);
    expect(tookMs).toBeGreaterThanOrEqual(delayMs);
    expect(tookMs).toBeLessThan(delayMs + timeoutMs + 2000);

    // Every request the server took was answered: 200, or 503 with Retry-After and Connection: close
    // while draining; afterwards new connections are refused, which is not a failed request.
    const failed = outcomes.filter(
      (o) =>
        !(
          o.status === 200 ||
          (o.status === 503 && o.retryAfter && o.connection === 'close') ||
          o.error === 'ECONNREFUSED'
        ),
    );
    expect(failed).toEqual([]);
    expect(outcomes.filter((o) => o.status === 200).length).toBeGreaterThan(before);
  }, 30_000);
});
