import { Socket } from 'node:net';
import { startTestApp, type TestApp } from './support/test-app';

const connect = (port: number) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = new Socket();
    socket.once('error', reject);
    socket.connect(port, '127.0.0.1', () => resolve(socket));
  });

describe('slow clients', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp({ HEADERS_TIMEOUT_MS: '1500', REQUEST_TIMEOUT_MS: '3000', RATE_LIMIT_REQUESTS: '100000' });
    port = Number(new URL(t.baseUrl).port);
  });
  afterAll(() => t.close());

  it('cuts off a client that trickles its headers, answering 408 in the documented shape', async () => {
    const socket = await connect(port);
    let reply = '';
    socket.on('data', (d) => (reply += d.toString('latin1')));
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
    const started = Date.now();
    const trickle = 'GET /api/index.json HTTP/1.1\r\nHost: x\r\nX-Slow: ';
    let i = 0;
    const timer = setInterval(() => {
      if (!socket.destroyed) socket.write(trickle[i++ % trickle.length]);
    }, 200);
    let giveUp: NodeJS.Timeout | undefined;
    const at = await Promise.race([
      closed,
      new Promise<number>((resolve) => (giveUp = setTimeout(() => resolve(0), 10_000))),
    ]);
    clearTimeout(giveUp);
    clearInterval(timer);
    socket.destroy();
    expect(at).toBeGreaterThan(0);
    expect(at - started).toBeLessThan(5000);
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(reply).toMatch(/\r\nRateLimit-Limit: 100000\r\n/i);
  }, 15_000);

  it('keeps serving others while a thousand idle keep-alive connections are open', async () => {
    const idle = await Promise.all(Array.from({ length: 1000 }, () => connect(port)));
    try {
      const started = Date.now();
      for (let i = 0; i < 20; i++) await t.http.get('/api/providers/hetzner.json').expect(200);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      for (const s of idle) s.destroy();
    }
  });
});
