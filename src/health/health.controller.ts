import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { Probe } from '../common/http/probe.decorator.js';
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
@Probe()
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly readiness: ReadinessIndicator,
  ) {}

  @Get('healthz')
  liveness(@Res({ passthrough: true }) res: Response): Promise<unknown> {
    const eventLoopDelayMs = Math.round(loopDelay.percentile(99) / 1e6);
    return this.answer(res, () => this.health.check([() => ({ process: { status: 'up', eventLoopDelayMs } })]));
  }

  @Get('readyz')
  readinessCheck(@Res({ passthrough: true }) res: Response): Promise<unknown> {
    return this.answer(res, () =>
      this.health.check([() => this.readiness.serving(), () => this.readiness.rateLimitStore()]),
    );
  }

  /** Terminus signals "down" by throwing; the report is the body either way (Nest writes it). */
  private async answer(res: Response, run: () => Promise<unknown>): Promise<unknown> {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof ServiceUnavailableException)) throw error;
      res.status(503);
      return error.getResponse();
    }
  }
}
