import { spawn, type ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';

export { freePort } from '../../scripts/cluster-local.mjs';
import { freePort } from '../../scripts/cluster-local.mjs';

/** True when something answers a Redis PING on the port. */
async function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('data', (d) => {
      socket.destroy();
      // A server that asks for a password answers NOAUTH: it is up all the same.
      resolve(/^(\+PONG|-NOAUTH)/.test(d.toString()));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

/** A real redis-server on a loopback port, without persistence; start, stop and start again. */
export class RedisServer {
  private process?: ChildProcess;

  private constructor(
    readonly port: number,
    private readonly password?: string,
  ) {}

  /** Starts one; with `password`, it asks every client for it (requirepass). */
  static async start(password?: string): Promise<RedisServer> {
    const server = new RedisServer(await freePort(), password);
    await server.start();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const auth = this.password === undefined ? [] : ['--requirepass', this.password];
    this.process = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...auth],
      {
        stdio: 'ignore',
      },
    );
    for (let i = 0; i < 100; i++) {
      if (await pong(this.port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`redis-server did not start on port ${this.port}`);
  }

  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
    this.process = undefined;
  }
}
