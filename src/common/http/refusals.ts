import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { IncomingMessage } from 'node:http';
import parseUrl from 'parseurl';
import { AppConfig } from '../../config/app-config.js';
import { DatasetService } from '../../dataset/dataset.service.js';
import type { DatasetSnapshot } from '../../dataset/dataset-snapshot.js';
import { routeTemplate } from '../../observability/route-template.js';
import type { RateLimitState } from '../../request/request-context.js';
import type { HttpProblem } from '../errors/http-problem.js';
import { type ErrorForm, ProblemRenderer } from '../errors/problem-renderer.js';
import { methodNotAllowed, rateLimited, routeNotFound } from '../errors/problems.js';
import { isAdmissionExempt } from './admission.js';
import { ALLOW_READ, isApiPath, READ_METHODS } from './api-paths.js';
import { CommonHeaders } from './common-headers.js';
import type { RouteTable } from './route-table.js';

/** A refusal written in one writeHead: status, body, and the flat header list besides the per-request ones. */
export interface Refusal {
  status: number;
  body: Buffer;
  /** Common headers, then the error's own (later names win, as setHeader would have it), flat. */
  headers: readonly string[];
}

/** A refusal the front door may answer before the router, and the route it is logged under. */
export interface KnownRefusal {
  refusal: Refusal;
  /** Route template for logs and metrics, when a route was matched to reach it. */
  route?: string;
}

const READ = new Set<string>(READ_METHODS);
/** At most this many paths with an unknown id are remembered per dataset version. */
const MAX_NOT_FOUND_PATHS = 1024;
/** At most this many rendered refusals are kept per dataset version (429s differ by Retry-After). */
const MAX_RENDERED = 512;

/**
 * The refusals that are the same bytes for every request of their kind, per dataset version and
 * configuration: the 404 of a path no route serves (envelope, page or markdown by Accept), the 404 of
 * an unknown id the router matched once (remembered by the error filter), the 405 of a write under
 * /api/, and the 429 per Retry-After value. Rendered once by ProblemRenderer, the filter's own
 * rendering, and written by the front door with the per-request headers (request id, rate limit),
 * without the router, an exception or a stack trace. A target with a query string is left to the
 * router; a reload drops everything.
 */
@Injectable()
export class Refusals {
  private snapshot?: DatasetSnapshot;
  private rendered = new Map<string, Refusal>();
  private notFound = new Map<string, { route: string; problem: HttpProblem }>();

  constructor(
    private readonly config: AppConfig,
    private readonly dataset: DatasetService,
    private readonly common: CommonHeaders,
    private readonly renderer: ProblemRenderer,
  ) {}

  /**
   * The refusal a request gets whatever the router would do, if it is one of the constant ones; the
   * admission decision (rate limit, HTTPS, availability, preflight) still comes first.
   */
  known(req: IncomingMessage, routes: RouteTable): KnownRefusal | undefined {
    const url = req.url!;
    if (url.includes('?') || !this.dataset.isLoaded) return undefined;
    const path = parseUrl(req)?.pathname;
    if (!path || isAdmissionExempt(path)) return undefined;
    this.forCurrentSnapshot();
    const method = req.method!;
    if (isApiPath(path) && !READ.has(method)) {
      return { refusal: this.refusal(`405 ${method}`, 'json', () => methodNotAllowed(method, ALLOW_READ)) };
    }
    if (method === 'OPTIONS') return undefined;
    const remembered = (method === 'GET' || method === 'HEAD') && this.notFound.get(url);
    if (remembered) {
      const form = this.renderer.formOf(path, req);
      return { refusal: this.refusal(`404 ${remembered.route} ${form}`, form, () => remembered.problem), route: remembered.route };
    }
    if (routes.matches(path)) return undefined;
    const form = this.renderer.formOf(path, req);
    return { refusal: this.refusal(`404 ${form}`, form, () => routeNotFound(this.config)) };
  }

  /** The 429 for a request over its limit, in the form its path and Accept ask for. */
  rateLimited(req: IncomingMessage, limit: RateLimitState): Refusal {
    this.forCurrentSnapshot();
    const form = this.renderer.formOf(parseUrl(req)?.pathname ?? '/', req);
    return this.refusal(`429 ${limit.resetSeconds} ${form}`, form, () => rateLimited(limit.limit, this.config.rateLimit.windowSeconds, limit.resetSeconds));
  }

  /**
   * Remembers that a route refused a GET of this path with 404 (an unknown id; the error filter calls
   * this), so the front door refuses later requests of the path itself. Like a remembered document,
   * this holds because a route's answer is fixed for a path and a dataset version. Bounded per version.
   */
  rememberNotFound(req: Request, problem: HttpProblem): void {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.originalUrl.includes('?') || !this.dataset.isLoaded) return;
    const route = routeTemplate(req);
    if (route === 'unmatched') return;
    this.forCurrentSnapshot();
    if (this.notFound.size < MAX_NOT_FOUND_PATHS) this.notFound.set(req.originalUrl, { route, problem });
  }

  private refusal(key: string, form: ErrorForm, problem: () => HttpProblem): Refusal {
    const cached = this.rendered.get(key);
    if (cached) return cached;
    const { status, body, headers } = this.renderer.render(problem(), form);
    const named = new Map<string, [string, string]>();
    const common = this.common.flat();
    for (let i = 0; i < common.length; i += 2) named.set(common[i].toLowerCase(), [common[i], common[i + 1]]);
    for (const [name, value] of headers) named.set(name.toLowerCase(), [name, value]);
    const refusal: Refusal = { status, body, headers: [...named.values()].flat() };
    if (this.rendered.size < MAX_RENDERED) this.rendered.set(key, refusal);
    return refusal;
  }

  private forCurrentSnapshot(): void {
    const current = this.dataset.current;
    if (this.snapshot === current) return;
    this.snapshot = current;
    this.rendered = new Map();
    this.notFound = new Map();
  }
}
