import { Global, Module } from '@nestjs/common';
import { DatasetService } from './dataset.service.js';

/** Loads, validates and serves the dataset; every feature reads from DatasetService. */
@Global()
@Module({ providers: [DatasetService], exports: [DatasetService] })
export class DatasetModule {}
