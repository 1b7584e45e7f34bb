import { Global, Module } from '@nestjs/common';
import { DatasetReloader } from './dataset-reloader.js';
import { DatasetService } from './dataset.service.js';

/** Loads, validates, serves and reloads the dataset; every feature reads from DatasetService. */
// Global: the one source of truth every feature reads.
@Global()
@Module({ providers: [DatasetService, DatasetReloader], exports: [DatasetService, DatasetReloader] })
export class DatasetModule {}
