import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { DatasetService } from '../../dataset/dataset.service.js';

export type UnavailableReason = 'maintenance' | 'draining' | 'starting';

/** Whether the service can answer requests now, and if not, why. */
@Injectable()
export class AvailabilityService {
  private draining = false;

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

  /** From now on, answer 503 (the instance is shutting down). */
  startDraining(): void {
    this.draining = true;
  }
}
