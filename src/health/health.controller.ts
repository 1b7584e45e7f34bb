import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { HealthCheckService } from '@nestjs/terminus';
import { SkipThrottle } from '@nestjs/throttler';
import type { Response } from 'express';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ReadinessIndicator } from './readiness.indicator.js';

const loopDelay = monitorEventLoopDelay({ resolution: 20 });
loopDelay.enable();

/**
 * Probes for the orchestrator, outside the public contract: not in OpenAPI, not rate limited.
 * /healthz: the process answers (its event loop runs). /readyz: it should receive traffic.
 */
@ApiExcludeController()
@SkipThrottle()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly readiness: ReadinessIndicator,
  ) {}

  @Get('healthz')
  async liveness(@Res() res: Response): Promise<void> {
    const eventLoopDelayMs = Math.round(loopDelay.percentile(99) / 1e6);
    await this.answer(res, () => this.health.check([() => ({ process: { status: 'up', eventLoopDelayMs } })]));
  }

  @Get('readyz')
  async readinessCheck(@Res() res: Response): Promise<void> {
    await this.answer(res, () => this.health.check([() => this.readiness.serving(), () => this.readiness.rateLimitStore()]));
  }

  /** Terminus signals "down" by throwing; the report is the body either way. */
  private async answer(res: Response, run: () => Promise<unknown>): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    try {
      res.status(200).json(await run());
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      res.status(503).json(error.getResponse());
    }
  }
}
