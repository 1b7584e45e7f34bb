import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { freePort } from './support/redis-server';

interface Service {
  child: ChildProcess;
  port: number;
  /** Every chunk read from the service's standard output, in order, with when it came. */
  chunks: { at: number; text: string }[];
  exited: Promise<number | null>;
}

/** The built service as production runs it, its standard output read as a log collector would. */
async function start(env: Record<string, string>): Promise<Service> {
  const port = await freePort();
  const child = spawn('node', ['dist/main.js'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      SHUTDOWN_DELAY_MS: '0',
      LOG_PRETTY: 'false',
      DATA_WATCH: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Service['chunks'] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      chunks.push({ at: Date.now(), text: String(d) });
      if (String(d).includes('listening on')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
  });
  return { child, port, chunks, exited };
}

function get(port: number, id: string, path = '/api/providers/hetzner.json'): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { 'x-request-id': id } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      })
      .on('error', reject);
  });
}

function scrape(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/metrics' }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += String(d)));
        res.on('end', () => resolve(body));
      })
      .on('error', reject);
  });
}

const metricOf = (text: string, name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1]);

/** The chunk (its index) that holds the access line of request `id`, or -1. */
const chunkOf = (s: Service, id: string) =>
  s.chunks.findIndex((c) => c.text.split('\n').some((l) => l.includes(`"reqId":"${id}"`)));

async function waitFor(test: () => boolean, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (test()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return test();
}

describe('the access log of the built service (LOG_BUFFER_BYTES)', () => {
  it('gathers lines into one write and writes them within about a second on a quiet instance', async () => {
    const s = await start({});
    try {
      const ids = ['gather-1', 'gather-2', 'gather-3'];
      const sentAt = Date.now();
      for (const id of ids) expect(await get(s.port, id)).toBe(200);
      expect(await waitFor(() => ids.every((id) => chunkOf(s, id) !== -1), 3000)).toBe(true);
      // Three lines are far below 8 KiB: the timer wrote them, together, within its second.
      const where = ids.map((id) => chunkOf(s, id));
      expect(new Set(where).size).toBe(1);
      expect(s.chunks[where[0]].at - sentAt).toBeLessThan(2500);
      for (const line of s.chunks[where[0]].text
        .trim()
        .split('\n')
        .filter((l) => l.includes('gather-'))) {
        expect(JSON.parse(line)).toMatchObject({ res: { status: 200 }, route: '/api/providers/:providerId.json' });
      }
    } finally {
      s.child.kill('SIGKILL');
    }
  });

  it('writes what it has gathered when it stops, so no line of a served request is lost', async () => {
    const s = await start({ LOG_BUFFER_BYTES: '65536' });
    const ids = Array.from({ length: 20 }, (_, i) => `last-${i}`);
    for (const id of ids) expect(await get(s.port, id)).toBe(200);
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    for (const id of ids) expect(chunkOf(s, id)).not.toBe(-1);
  });

  it('keeps answering while nothing reads its output, and writes the lines once it is read again', async () => {
    const s = await start({ LOG_BUFFER_BYTES: '0' });
    try {
      // A log collector that stops reading: the pipe (64 KiB) fills after a few hundred lines. A
      // synchronous write to it would block the process (sonic-boom's sync mode retries every 100 ms).
      s.child.stdout!.pause();
      const started = Date.now();
      for (let i = 0; i < 600; i++) expect(await get(s.port, `unread-${i}`)).toBe(200);
      expect(Date.now() - started).toBeLessThan(15_000);
      s.child.stdout!.resume();
      expect(await waitFor(() => chunkOf(s, 'unread-599') !== -1, 5000)).toBe(true);
      for (const i of [0, 300, 599]) expect(chunkOf(s, `unread-${i}`)).not.toBe(-1);
    } finally {
      s.child.kill('SIGKILL');
    }
  }, 30_000);

  it('drops the lines beyond LOG_MAX_PENDING_BYTES while nothing reads its output, counts them, and keeps answering', async () => {
    const metricsPort = await freePort();
    const s = await start({
      LOG_BUFFER_BYTES: '0',
      LOG_MAX_PENDING_BYTES: '65536',
      METRICS_PORT: String(metricsPort),
      RATE_LIMIT_REQUESTS: '1000000',
    });
    try {
      s.child.stdout!.pause();
      // About 550 bytes a line: well beyond what the socket buffers and the 64 KiB allowed to wait hold.
      const path = `/${'x'.repeat(200)}`;
      for (let i = 0; i < 2000; i++) expect(await get(s.port, `stalled-${i}`, path)).toBe(404);
      expect(metricOf(await scrape(metricsPort), 'log_dropped_bytes_total')).toBeGreaterThan(100_000);
      expect(s.child.exitCode).toBeNull();
      // Once read again, new lines are written. The 64 KiB still waiting go out first (sonic-boom retries a
      // full pipe every 100 ms), and a line logged before they have is dropped like the others: so ask
      // again until a line of a request made after the reader came back is read, within a bound.
      s.child.stdout!.resume();
      let written = false;
      for (let i = 0; i < 10 && !written; i++) {
        expect(await get(s.port, `after-stall-${i}`)).toBe(200);
        written = await waitFor(() => chunkOf(s, `after-stall-${i}`) !== -1, 1000);
      }
      expect(written).toBe(true);
    } finally {
      s.child.kill('SIGKILL');
    }
  }, 60_000);

  it('keeps answering when its output is closed, and counts the log bytes it could not write', async () => {
    const metricsPort = await freePort();
    const s = await start({ LOG_BUFFER_BYTES: '0', METRICS_PORT: String(metricsPort) });
    try {
      // The log collector goes away: every later write to the pipe fails with EPIPE.
      s.child.stdout!.destroy();
      for (let i = 0; i < 50; i++) expect(await get(s.port, `closed-${i}`)).toBe(200);
      const dropped = metricOf(await scrape(metricsPort), 'log_dropped_bytes_total');
      // At least the 49 access lines after the first failed write, each over 200 bytes.
      expect(dropped).toBeGreaterThan(49 * 200);
      expect(s.child.exitCode).toBeNull();
    } finally {
      s.child.kill('SIGKILL');
    }
  });

  it('writes each line as it is logged with LOG_BUFFER_BYTES=0', async () => {
    const s = await start({ LOG_BUFFER_BYTES: '0' });
    try {
      for (const id of ['each-1', 'each-2']) {
        expect(await get(s.port, id)).toBe(200);
        // Written before the next request is sent, well inside the buffered timer's second.
        expect(await waitFor(() => chunkOf(s, id) !== -1, 400)).toBe(true);
      }
      expect(chunkOf(s, 'each-1')).not.toBe(chunkOf(s, 'each-2'));
    } finally {
      s.child.kill('SIGKILL');
    }
  });
});
