import { Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import parseUrl from 'parseurl';
import { AppConfig } from '../../config/app-config.js';
import { DatasetService } from '../../dataset/dataset.service.js';
import type { DatasetSnapshot } from '../../dataset/dataset-snapshot.js';
import type { RateLimitState } from '../../request/request-context.js';
import type { HttpProblem } from '../errors/http-problem.js';
import { type ErrorForm, ProblemRenderer, type RenderedProblem } from '../errors/problem-renderer.js';
import { rateLimited } from '../errors/problems.js';
import { pathOf } from './admission.js';
import { CommonHeaders } from './common-headers.js';

/** A refusal written in one writeHead: status, body, and the flat header list besides the per-request ones. */
export interface Refusal {
  status: number;
  body: Buffer;
  /** Common headers, then the error's own (later names win, as setHeader would have it), flat. */
  headers: readonly string[];
  /** Route template for logs and metrics: the route that refused, or `unmatched`. */
  route: string;
}

/** Statuses whose refusal is the same for every request of a method, target and form, per dataset version. */
const REPLAYED_STATUSES: ReadonlySet<number> = new Set([404, 405]);
/** At most this many refusals are remembered per dataset version (targets with distinct unknown ids add up). */
const MAX_REMEMBERED = 1024;
/** At most this many rendered 429s are kept per dataset version (they differ by Retry-After and form). */
const MAX_RATE_LIMITED = 512;

/**
 * The refusals the replay cache in front of Express answers itself, as the error filter wrote them:
 * a 404 (a path no route serves, or an unknown id of one that does) and a 405 (a write under /api/)
 * are the same bytes for every request of their method, target and error form until the dataset
 * changes, so the filter records what it rendered (`record`) and later requests of that target get
 * those bytes (`replay`) with their own per-request headers, without the router, an exception or a
 * stack trace. The 429 is rendered here once per Retry-After value and form (`rateLimited`), by the
 * same renderer. A target with a query string is never recorded; a new dataset version drops all.
 */
@Injectable()
export class Refusals {
  private snapshot?: DatasetSnapshot;
  private remembered = new Map<string, Refusal>();
  private limited = new Map<string, Refusal>();

  constructor(
    private readonly config: AppConfig,
    private readonly dataset: DatasetService,
    private readonly common: CommonHeaders,
    private readonly renderer: ProblemRenderer,
  ) {}

  /** The refusal the error filter wrote for a request of this method, target and form, if it was recorded. */
  replay(req: IncomingMessage): Refusal | undefined {
    const url = req.url!;
    if (url.includes('?') || !this.dataset.isLoaded || this.remembered.size === 0) return undefined;
    this.forCurrentSnapshot();
    return this.remembered.get(this.keyOf(req, url));
  }

  /**
   * Records what the error filter wrote (`rendered`) for a request refused with 404 or 405, under the
   * route that refused it, so the replay cache answers the next request of the target the same way.
   */
  record(req: IncomingMessage, rendered: RenderedProblem, route: string): void {
    const url = req.url!;
    if (!REPLAYED_STATUSES.has(rendered.status) || url.includes('?') || !this.dataset.isLoaded) return;
    this.forCurrentSnapshot();
    const key = this.keyOf(req, url);
    if (this.remembered.size >= MAX_REMEMBERED || this.remembered.has(key)) return;
    this.remembered.set(key, this.refusalOf(rendered, route));
  }

  /** The 429 for a request over its limit, in the form its path and Accept ask for. */
  rateLimited(req: IncomingMessage, limit: RateLimitState): Refusal {
    this.forCurrentSnapshot();
    const form = this.renderer.formOf(parseUrl(req)?.pathname ?? '/', req);
    const key = `${limit.resetSeconds} ${form}`;
    const cached = this.limited.get(key);
    if (cached) return cached;
    const refusal = this.refusalOf(this.renderer.render(this.problem429(limit), form), 'unmatched');
    if (this.limited.size < MAX_RATE_LIMITED) this.limited.set(key, refusal);
    return refusal;
  }

  private problem429(limit: RateLimitState): HttpProblem {
    return rateLimited(limit.limit, this.config.rateLimit.windowSeconds, limit.resetSeconds);
  }

  private keyOf(req: IncomingMessage, url: string): string {
    const form: ErrorForm = this.renderer.formOf(pathOf(url), req);
    return `${req.method} ${form} ${url}`;
  }

  /** A rendered problem as one writeHead's headers: the common ones, then its own (later names win). */
  private refusalOf({ status, body, headers }: RenderedProblem, route: string): Refusal {
    const named = new Map<string, [string, string]>();
    const common = this.common.flat();
    for (let i = 0; i < common.length; i += 2) named.set(common[i].toLowerCase(), [common[i], common[i + 1]]);
    for (const [name, value] of headers) named.set(name.toLowerCase(), [name, value]);
    return { status, body, headers: [...named.values()].flat(), route };
  }

  private forCurrentSnapshot(): void {
    const current = this.dataset.current;
    if (this.snapshot === current) return;
    this.snapshot = current;
    this.remembered = new Map();
    this.limited = new Map();
  }
}
