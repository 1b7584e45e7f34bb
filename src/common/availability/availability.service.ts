import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { DatasetService } from '../../dataset/dataset.service.js';

export type UnavailableReason = 'maintenance' | 'draining' | 'starting';

/** Whether the service can answer requests now, and if not, why. */
@Injectable()
export class AvailabilityService {
  private draining = false;
  private shuttingDown = false;

  constructor(
    private readonly config: AppConfig,
    private readonly dataset: DatasetService,
  ) {}

  /** Why requests must be refused with 503 now, or undefined when the service can serve. */
  unavailableReason(): UnavailableReason | undefined {
    if (this.config.maintenanceMode) return 'maintenance';
    if (this.draining) return 'draining';
    if (!this.dataset.isLoaded) return 'starting';
    return undefined;
  }

  /** Why the instance should not receive new traffic (readiness), or undefined. */
  readinessProblem(): string | undefined {
    if (this.shuttingDown) return 'shutting down';
    return this.unavailableReason();
  }

  /** Shutdown has begun: readiness fails at once, requests are still served normally. */
  beginShutdown(): void {
    this.shuttingDown = true;
  }

  /** From now on, answer 503 with Connection: close (the instance is closing its connections). */
  startDraining(): void {
    this.shuttingDown = true;
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }
}
