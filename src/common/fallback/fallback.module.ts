import { Module } from '@nestjs/common';
import { FallbackController } from './fallback.controller.js';

/** The catch-all route (FallbackController). AppModule imports it last, so its route is registered last. */
@Module({ controllers: [FallbackController] })
export class FallbackModule {}
