import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { watch, type FSWatcher } from 'node:fs';
import { AppConfig } from '../config/app-config.js';
import { MetricsService } from '../observability/metrics.service.js';
import { InvalidDatasetError, loadDataset } from './dataset-loader.js';
import { DatasetService } from './dataset.service.js';

/** Changes in quick succession (an editor saving, a ConfigMap swap) are reloaded once. */
const DEBOUNCE_MS = 300;

/**
 * Reloads the dataset without a restart, on SIGHUP and when files under DATA_DIR change (including a
 * Kubernetes ConfigMap mount, which swaps a symlinked directory). The new version is loaded,
 * validated and precomputed while the old one keeps serving, then swapped in whole; an invalid one is
 * refused and logged, and the old one stays.
 */
@Injectable()
export class DatasetReloader implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Dataset');
  private watcher?: FSWatcher;
  private timer?: NodeJS.Timeout;
  private running?: Promise<boolean>;
  private again = false;
  private readonly onHangup = () => this.schedule(0);

  constructor(
    private readonly config: AppConfig,
    private readonly dataset: DatasetService,
    private readonly metrics: MetricsService,
  ) {}

  onApplicationBootstrap(): void {
    process.on('SIGHUP', this.onHangup);
    if (!this.config.dataWatch) return;
    try {
      this.watcher = watch(this.config.dataDir, { recursive: true }, () => this.schedule(DEBOUNCE_MS));
      this.watcher.on('error', (error) =>
        this.logger.warn(`Stopped watching ${this.config.dataDir}: ${error.message}`),
      );
    } catch (error) {
      this.logger.warn(`Cannot watch ${this.config.dataDir} (${(error as Error).message}); reload with SIGHUP`);
    }
  }

  onModuleDestroy(): void {
    process.off('SIGHUP', this.onHangup);
    this.watcher?.close();
    clearTimeout(this.timer);
  }

  /** Loads, validates and precomputes the dataset, then swaps it in; true when the new version is served. */
  reload(): Promise<boolean> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.load().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.schedule(0);
      }
    });
    return this.running;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.reload(), delayMs);
  }

  private async load(): Promise<boolean> {
    const started = Date.now();
    try {
      this.dataset.replacing();
      const snapshot = await loadDataset(this.config.dataDir);
      this.dataset.publish(snapshot);
      this.metrics.reload('success');
      this.logger.log(`Reloaded dataset ${snapshot.version} from ${this.config.dataDir} in ${Date.now() - started} ms`);
      return true;
    } catch (error) {
      this.metrics.reload('failure');
      const problems = error instanceof InvalidDatasetError ? error.problems : [(error as Error).message];
      this.logger.error(
        `Refused the new dataset; still serving ${this.dataset.current.version}. ${problems.length} problem(s):\n${problems.join('\n')}`,
      );
      return false;
    }
  }
}
