import { Module } from '@nestjs/common';
import { PlansModule } from '../plans/plans.module.js';
import { FiltersService } from './filters.service.js';

/** The valid values and ranges of every filter, for describe_filters. */
@Module({ imports: [PlansModule], providers: [FiltersService], exports: [FiltersService] })
export class FiltersModule {}
