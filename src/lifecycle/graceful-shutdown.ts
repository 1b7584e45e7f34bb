import { Injectable, Logger, type INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppConfig } from '../config/app-config.js';
import { AvailabilityService } from '../common/availability/availability.service.js';

/** How long idle keep-alive connections get to send one more request (and be told to go) before they are closed. */
const IDLE_GRACE_MS = 1000;

/**
 * Shutdown without failed requests, for a pod behind a load balancer:
 * 1. SIGTERM: /readyz answers 503 at once, everything else is served normally for SHUTDOWN_DELAY_MS,
 *    while the balancer notices and stops routing here;
 * 2. the server stops accepting connections; in-flight requests finish; a request that still arrives
 *    on an open keep-alive connection gets 503, Retry-After and Connection: close; idle connections
 *    are closed; after SHUTDOWN_TIMEOUT_MS whatever is left is cut;
 * 3. Nest's shutdown hooks run (Redis, metrics server, file watcher) and the process exits 0.
 */
@Injectable()
export class GracefulShutdown {
  private readonly logger = new Logger('Shutdown');
  private running?: Promise<void>;

  constructor(
    private readonly config: AppConfig,
    private readonly availability: AvailabilityService,
  ) {}

  /** Runs the shutdown once, whatever asks for it. */
  shutdown(app: INestApplication, server: Server, signal: string): Promise<void> {
    this.running ??= this.run(app, server, signal);
    return this.running;
  }

  private async run(app: INestApplication, server: Server, signal: string): Promise<void> {
    const { delayMs, timeoutMs } = this.config.shutdown;
    this.logger.log(`${signal}: not ready; serving for ${delayMs} ms more, then draining`);
    this.availability.beginShutdown();
    await sleep(delayMs);

    this.availability.startDraining();
    // Stop accepting connections, but leave open keep-alive connections alone for a moment: http's
    // close() would also drop idle ones at once, racing clients that are about to reuse them. Their
    // next request is answered 503 with Connection: close instead, and they close themselves.
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    const idle = setTimeout(() => server.closeIdleConnections(), Math.min(IDLE_GRACE_MS, timeoutMs));
    const force = setTimeout(() => {
      this.logger.warn(`Requests still open after ${timeoutMs} ms; closing their connections`);
      server.closeAllConnections();
    }, timeoutMs);
    await closed;
    clearTimeout(idle);
    clearTimeout(force);
    await app.close();
    this.logger.log('Stopped');
  }
}
