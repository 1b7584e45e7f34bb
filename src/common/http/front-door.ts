import { Injectable } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { contextOf, type RateLimitState } from '../../request/request-context.js';
import { AvailabilityService } from '../availability/availability.service.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { AdmissionPolicy, HSTS, isAdmissionExempt, pathOf } from './admission.js';
import { CommonHeaders } from './common-headers.js';
import { ContentEncodings } from './content-encoding.js';
import { DocumentResponder } from './document-responder.js';
import { FastPaths } from './fast-paths.js';
import { MCP_PATH } from './mcp-path.js';
import { type Refusal, Refusals } from './refusals.js';

/** Starts observing a request (request id, access log, metrics) and returns its id. */
export type Observe = (req: IncomingMessage, res: ServerResponse) => string;

/** A remembered answer to a single JSON-RPC request: its head with the caller's id, and the bytes after it. */
export interface ReplayedAnswer {
  head: string;
  tail: Buffer;
}

/** The MCP endpoint's recorded verdicts and answers (McpAnswerCache), and its body reader. */
export interface McpReplays {
  /** Whether replays are kept at all (MCP_ANSWER_CACHE_BYTES > 0). */
  readonly enabled: boolean;
  /** The controller's answer to this single request, if it recorded one for the same verdict key. */
  replay(headers: IncomingHttpHeaders, body: unknown): ReplayedAnswer | undefined;
  /** Reads a POST body with the endpoint's own parser; the outcome stays with the request for the controller. */
  readBody(req: IncomingMessage, res: ServerResponse, done: (error?: unknown) => void): void;
}

/**
 * Bodies up to this size are read here for a replay; a larger POST goes to the controller unread.
 * Every single call of the published tools fits in far less.
 */
const REPLAYED_BODY_BYTES = 64 * 1024;

/**
 * The replay cache in front of Express (FRONT_DOOR=on, the default): an explicit cache of what Nest
 * already answered, so a repeated request costs about what a bare server's does. Every request
 * (but the health probes and a target Express cannot route) is observed and counted here first,
 * through the same storage as RateLimitGuard, and decided by the same AdmissionPolicy.decide as the
 * header interceptor; then:
 *
 * - over the limit: the precomputed 429 (Refusals.rateLimited), before any body is read;
 * - admitted, and a GET or HEAD of a document a controller sent with `sendRemembered` (FastPaths):
 *   the document, with its conditional and content-coding handling (DocumentResponder);
 * - admitted, and a request the error filter refused with a 404 or 405 before (Refusals.replay):
 *   the filter's bytes;
 * - admitted, and a POST of one JSON-RPC request to /mcp whose verdict and answer the controller
 *   recorded (McpReplays): the body is read and the answer replayed behind the caller's id;
 * - anything else (a miss, a redirect, a preflight, a 503) goes on to Express marked as counted, and
 *   Nest answers it: RateLimitGuard takes the count, the interceptor the headers and the decision.
 *
 * It never decides anything Nest would not: what it replays, Nest wrote first, and the headers it adds
 * (request id, RateLimit-*, Strict-Transport-Security) are the ones the interceptor writes.
 * `FRONT_DOOR=off` removes it; CI runs the HTTP and MCP suites both ways.
 */
@Injectable()
export class FrontDoor {
  constructor(
    private readonly policy: AdmissionPolicy,
    private readonly headers: CommonHeaders,
    private readonly limiter: RateLimiter,
    private readonly availability: AvailabilityService,
    private readonly fastPaths: FastPaths,
    private readonly responder: DocumentResponder,
    private readonly encodings: ContentEncodings,
    private readonly refusals: Refusals,
  ) {}

  /** The request listener in front of Express; `pass` hands the request to Express. */
  listener(observe: Observe, mcp: McpReplays) {
    return (req: IncomingMessage, res: ServerResponse, pass: () => void): void => {
      const context = contextOf(req);
      if (context.malformedTarget !== undefined || isAdmissionExempt(pathOf(req.url!))) return pass();
      const client = this.policy.clientAddress(req);
      context.clientAddress = client;
      const id = observe(req, res);
      // Anything that fails here (the count, or a replay before the dataset is loaded) leaves the
      // request to Nest, which counts it and answers the error if that fails too.
      const fallBack = () => res.headersSent || pass();
      const decide = (limit: RateLimitState) => {
        try {
          this.decide(req, res, pass, id, limit, mcp);
        } catch {
          fallBack();
        }
      };
      try {
        const state = this.limiter.hit(normalizeIp(client));
        if (state instanceof Promise) state.then(decide, fallBack);
        else decide(state);
      } catch {
        fallBack();
      }
    };
  }

  private decide(req: IncomingMessage, res: ServerResponse, pass: () => void, id: string, limit: RateLimitState, mcp: McpReplays): void {
    const context = contextOf(req);
    const decision = this.policy.decide({ method: req.method!, url: req.url!, secure: this.policy.secure(req), malformed: false, limit, unavailable: this.availability.unavailableReason() });
    const dynamic = ['X-Request-Id', id];
    this.limiter.pushHeaders(dynamic, limit);
    if (decision.kind === 'refuse' && limit.limited) {
      // Logged and counted under the route Nest would have matched, as the guard's 429 is.
      context.rememberedRoute = this.routeOf(req);
      return writeRefusal(req, res, this.refusals.rateLimited(req, limit), dynamic);
    }
    const onward = () => {
      context.counted = limit;
      context.rememberedRoute = undefined;
      res.setHeader('X-Request-Id', id);
      pass();
    };
    if (decision.kind !== 'serve') return onward();
    if (decision.hsts) dynamic.push('Strict-Transport-Security', HSTS);
    const method = req.method;
    if (method === 'GET' || method === 'HEAD') {
      const known = this.fastPaths.lookup(req.url!);
      if (known) {
        const doc = known.pick(req);
        const variant = this.encodings.choose(req.headers['accept-encoding'], doc);
        // No acceptable coding: the controller answers the 406.
        if (variant === null) return onward();
        context.rememberedRoute = known.route;
        return this.responder.writeHeadOnce(req, res, { doc, variant, cacheControl: known.cacheControl }, this.headers.flat(), dynamic);
      }
    }
    const refused = this.refusals.replay(req);
    if (refused) {
      context.rememberedRoute = refused.route;
      return writeRefusal(req, res, refused, dynamic);
    }
    if (method === 'POST' && mcp.enabled && wantsReplay(req)) {
      return mcp.readBody(req, res, (error) => {
        const answer = error === undefined ? mcp.replay(req.headers, (req as IncomingMessage & { body?: unknown }).body) : undefined;
        if (answer === undefined) return onward();
        context.rememberedRoute = MCP_PATH;
        writeJson(req, res, answer, this.headers.flat(), dynamic);
      });
    }
    onward();
  }

  /** The route template of a request, where the cache knows it (a remembered path, or /mcp); otherwise unmatched. */
  private routeOf(req: IncomingMessage): string | undefined {
    const url = req.url!;
    if (req.method === 'GET' || req.method === 'HEAD') {
      const known = this.fastPaths.lookup(url);
      if (known) return known.route;
    }
    if (pathOf(url) === MCP_PATH) return MCP_PATH;
    return this.refusals.replay(req)?.route;
  }
}

/** A POST to /mcp whose body may be read here (headers only: nothing is read yet). */
function wantsReplay(req: IncomingMessage): boolean {
  if (req.url !== MCP_PATH) return false;
  const headers = req.headers;
  const length = headers['content-length'];
  if (length === undefined || !(Number(length) <= REPLAYED_BODY_BYTES)) return false;
  return headers['content-encoding'] === undefined || headers['content-encoding'] === 'identity';
}

/**
 * Writes a replayed JSON-RPC answer (status 200) with one writeHead (the per-request headers, the
 * common ones, its type and length), then its two pieces in one corked write.
 */
function writeJson(req: IncomingMessage, res: ServerResponse, answer: ReplayedAnswer, common: readonly string[], dynamic: string[]): void {
  const length = Buffer.byteLength(answer.head) + answer.tail.length;
  for (let i = 0; i < common.length; i++) dynamic.push(common[i]);
  dynamic.push('Content-Type', 'application/json', 'Content-Length', String(length));
  contextOf(req).sentBytes = length;
  res.writeHead(200, dynamic);
  res.cork();
  res.write(answer.head);
  res.end(answer.tail);
  res.uncork();
}

/** Writes a remembered refusal with one writeHead: the per-request headers, then its own. */
function writeRefusal(req: IncomingMessage, res: ServerResponse, refusal: Refusal, dynamic: string[]): void {
  const fixed = refusal.headers;
  for (let i = 0; i < fixed.length; i++) dynamic.push(fixed[i]);
  contextOf(req).sentBytes = refusal.body.length;
  res.writeHead(refusal.status, dynamic);
  res.end(req.method === 'HEAD' ? undefined : refusal.body);
}
