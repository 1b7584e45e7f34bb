import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { AvailabilityService } from '../common/availability/availability.service.js';
import { RateLimitStorage } from '../common/rate-limit/rate-limit-storage.js';
import { DatasetService } from '../dataset/dataset.service.js';

/** What readiness is made of: a loaded dataset and no shutdown under way. Redis trouble only degrades. */
@Injectable()
export class ReadinessIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly dataset: DatasetService,
    private readonly availability: AvailabilityService,
    private readonly storage: RateLimitStorage,
  ) {}

  /** Up when a dataset is loaded and the instance is accepting traffic. */
  serving() {
    const check = this.indicators.check('serving');
    const reason = this.availability.readinessProblem();
    if (reason) return check.down({ reason });
    return check.up({
      datasetVersion: this.dataset.current.version,
      loadedAt: this.dataset.current.loadedAt.toISOString(),
    });
  }

  /** Always up: the limiter fails open, so a Redis outage is reported as degraded, not as unready. */
  rateLimitStore() {
    const mode = this.storage.mode;
    return this.indicators.check('rateLimitStore').up({ mode, degraded: mode === 'local-fallback' });
  }
}
