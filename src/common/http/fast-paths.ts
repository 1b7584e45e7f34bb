import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { IncomingMessage } from 'node:http';
import { DatasetService } from '../../dataset/dataset.service.js';
import type { DatasetSnapshot } from '../../dataset/dataset-snapshot.js';
import { pathOf } from './exempt-paths.js';
import type { Sendable } from './sendable.js';

/** How a remembered path is answered: which document (by the request, for negotiated pages) and how. */
export interface FastEntry {
  /** Route template of the controller that first answered, for logs and metrics. */
  route: string;
  pick(req: IncomingMessage): Sendable;
  cacheControl?: string;
}

/** At most this many paths are remembered per dataset version (percent-encoded variants add up). */
const MAX_ENTRIES = 4096;

/**
 * Every document this service sends is fixed for a path and a dataset version. The first GET of a
 * path goes through the router and the controller as usual; the DocumentResponder then records
 * path → document here, and the front door answers later GETs of that path itself, with the same
 * limiter, headers and conditional handling, but without the router and Nest's pipeline. Entries
 * belong to one snapshot and are dropped when another is published.
 */
@Injectable()
export class FastPaths {
  private entries = new Map<string, FastEntry>();
  private snapshot?: DatasetSnapshot;

  constructor(private readonly dataset: DatasetService) {}

  /** The entry for a request path, if one was recorded for the snapshot being served. */
  lookup(url: string): FastEntry | undefined {
    if (this.snapshot !== this.dataset.current) return undefined;
    return this.entries.get(pathOf(url));
  }

  /** Records how a GET path was answered; called by the DocumentResponder after a 200 or 304. */
  remember(req: Request, entry: FastEntry): void {
    const current = this.dataset.current;
    if (this.snapshot !== current) {
      this.snapshot = current;
      this.entries = new Map();
    }
    if (this.entries.size >= MAX_ENTRIES) return;
    this.entries.set(pathOf(req.url), entry);
  }
}
