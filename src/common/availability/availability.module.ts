import { Module } from '@nestjs/common';
import { AvailabilityService } from './availability.service.js';

/** Whether the service can serve now (starting, draining, maintenance). */
@Module({ providers: [AvailabilityService], exports: [AvailabilityService] })
export class AvailabilityModule {}
