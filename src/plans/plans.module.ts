import { Module } from '@nestjs/common';
import { PlansService } from './plans.service.js';

/** Plan search across providers; used by the MCP tools. */
@Module({ providers: [PlansService], exports: [PlansService] })
export class PlansModule {}
