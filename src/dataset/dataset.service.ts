import { Injectable, type OnModuleInit } from '@nestjs/common';
import { MetricsService } from '../observability/metrics.service.js';
import { AppConfig } from '../config/app-config.js';
import { loadDataset } from './dataset-loader.js';
import { utcDay, type DatasetSnapshot } from './dataset-snapshot.js';

/** A value derived from a snapshot, computed once per snapshot and cached with it. */
export class DatasetView<T> {
  private readonly cache = new WeakMap<DatasetSnapshot, T>();

  constructor(
    private readonly source: DatasetService,
    private readonly build: (snapshot: DatasetSnapshot) => T,
  ) {}

  /** The value for the snapshot being served now. */
  get(): T {
    return this.for(this.source.current);
  }

  /** The value for a given snapshot, built on first use. */
  for(snapshot: DatasetSnapshot): T {
    let value = this.cache.get(snapshot);
    if (value === undefined) {
      value = this.build(snapshot);
      this.cache.set(snapshot, value);
    }
    return value;
  }
}

/**
 * The one source of truth: loads and validates the dataset, holds the snapshot being served, and
 * precomputes every registered view for a snapshot before it is served (at start only when
 * PRECOMPUTE_VIEWS is true, the default).
 */
/** Milliseconds in a day (UTC has no daylight saving). */
const DAY_MS = 86_400_000;

@Injectable()
export class DatasetService implements OnModuleInit {
  private snapshot?: DatasetSnapshot;
  /** Whether the views of the snapshot being served are built on first use (PRECOMPUTE_VIEWS=false at start). */
  private onFirstUse = false;
  private readonly views: DatasetView<unknown>[] = [];
  private readonly releases: (() => void)[] = [];

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.snapshot) this.publish(await loadDataset(this.config.dataDir), this.config.precomputeViews);
  }

  /**
   * The snapshot being served, aged to today (UTC): on the first use after the date changes it is
   * replaced by the same dataset aged one day more, so every view (keyed by snapshot) is rebuilt and
   * its ETag changes with its ages and stale flags, without a release.
   */
  get current(): DatasetSnapshot {
    if (!this.snapshot) throw new Error('The dataset has not been loaded yet');
    // Requests read this many times each: the day is worked out again only when the clock leaves it.
    const now = Date.now();
    if (now < this.today.from || now >= this.today.to) {
      const start = new Date(now);
      start.setUTCHours(0, 0, 0, 0);
      this.today = { day: utcDay(start), from: start.getTime(), to: start.getTime() + DAY_MS };
    }
    const aged = this.snapshot.agedOn(this.today.day);
    if (aged !== this.snapshot) this.snapshot = aged;
    return this.snapshot;
  }

  /** The UTC day `current` last aged the snapshot to, and the instants it spans. */
  private today = { day: '', from: 0, to: 0 };

  get isLoaded(): boolean {
    return this.snapshot !== undefined;
  }

  /** Registers a value derived from the dataset; it is rebuilt once for each new snapshot. */
  view<T>(build: (snapshot: DatasetSnapshot) => T): DatasetView<T> {
    const view = new DatasetView(this, build);
    this.views.push(view as DatasetView<unknown>);
    if (this.snapshot && !this.onFirstUse) view.for(this.snapshot);
    return view;
  }

  /**
   * Registers how to empty a cache of answers built from the dataset being served. It is emptied when
   * a replacement begins (`replacing`, before the new version is read) and again when one is
   * published: a reload needs that memory for the new version while the old one still serves.
   */
  onReplace(release: () => void): void {
    this.releases.push(release);
  }

  /** Empties every cache registered with `onReplace`: a new version is about to be read. */
  replacing(): void {
    for (const release of this.releases) release();
  }

  /**
   * Precomputes every view for `snapshot`, then makes it the one being served: a view that fails to
   * build leaves the snapshot being served as it was. Only the first snapshot may skip this
   * (PRECOMPUTE_VIEWS=false); its views are then built on their first use.
   */
  publish(snapshot: DatasetSnapshot, precompute = true): void {
    if (precompute) for (const view of this.views) view.for(snapshot);
    this.onFirstUse = !precompute;
    this.snapshot = snapshot;
    this.replacing();
    this.metrics.datasetPublished(snapshot.version, snapshot.loadedAt);
    this.metrics.datasetPriceDates(
      new Map(snapshot.providers.map((provider) => [provider.id, provider.plans.map((plan) => plan.observedAt)])),
    );
  }
}
