import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { IncomingMessage } from 'node:http';
import { DatasetService } from '../../dataset/dataset.service.js';
import type { DatasetSnapshot } from '../../dataset/dataset-snapshot.js';
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
 * The documents routes opt into remembering (DocumentResponder.sendRemembered) are fixed for a path
 * and a dataset version. The first GET of such a path goes through the router and the controller as
 * usual; the DocumentResponder then records path → document here, and the front door answers later GETs of that path itself, with the same
 * limiter, headers and conditional handling, but without the router and Nest's pipeline. Entries
 * belong to one snapshot and are dropped when another is published.
 */
@Injectable()
export class FastPaths {
  private entries = new Map<string, FastEntry>();
  private snapshot?: DatasetSnapshot;

  constructor(private readonly dataset: DatasetService) {}

  /**
   * The entry for a request target, if one was recorded for the snapshot being served. A target with
   * a query string has none: the key is the path, which does not cover the query.
   */
  lookup(url: string): FastEntry | undefined {
    if (this.snapshot !== this.dataset.current || url.includes('?')) return undefined;
    return this.entries.get(url);
  }

  /** Records how a GET path was answered (DocumentResponder.sendRemembered); a target with a query is not recorded. */
  remember(req: Request, entry: FastEntry): void {
    if (req.url.includes('?')) return;
    const current = this.dataset.current;
    if (this.snapshot !== current) {
      this.snapshot = current;
      this.entries = new Map();
    }
    if (this.entries.size >= MAX_ENTRIES) return;
    this.entries.set(req.url, entry);
  }
}
