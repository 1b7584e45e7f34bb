import { Injectable } from '@nestjs/common';
import { normalizeIp } from '@nestjs/throttler';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyaddr from 'proxy-addr';
import { AppConfig } from '../../config/app-config.js';
import { contextOf, type RateLimitState } from '../../request/request-context.js';
import { AvailabilityService } from '../availability/availability.service.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { type Admission, AdmissionPolicy, HSTS, isAdmissionExempt, isSecure, pathOf, type TrustFn } from './admission.js';
import { CommonHeaders } from './common-headers.js';
import { ContentEncodings } from './content-encoding.js';
import { DocumentResponder } from './document-responder.js';
import { FastPaths } from './fast-paths.js';
import type { Refusal, Refusals } from './refusals.js';
import type { RouteTable } from './route-table.js';

/** Starts observing a request (request id, access log, metrics) and returns its id. */
export type Observe = (req: IncomingMessage, res: ServerResponse) => string;

/** POSTs the door may answer from memory once their body is read (McpDoor, for /mcp). */
export interface RememberedPosts {
  /** The route template such an answer is logged and counted under. */
  readonly route: string;
  /** Whether to read this request's body at the door (decided on its headers). */
  wants(req: IncomingMessage): boolean;
  /** Reads the body; `done` gets the JSON to answer with, or undefined to pass the request on. */
  answer(req: IncomingMessage, res: ServerResponse, done: (json: JsonChunks | undefined) => void): void;
}

/** A JSON body in pieces written one after the other (strings as UTF-8), and its length in bytes. */
export interface JsonChunks {
  chunks: readonly (string | Buffer)[];
  length: number;
}

/**
 * The first step of every request, at two entry points that share one admission decision
 * (AdmissionPolicy.decide): stamps the common headers, counts the request exactly once and writes the
 * rate-limit headers, then serves, refuses (429, 400, 503 through the error filter), redirects plain
 * HTTP (301) or answers a CORS preflight (204). The two entry points differ only in how they write:
 *
 * - `beforeExpress`: a request listener in front of Express. A GET or HEAD of a remembered document
 *   (FastPaths), or a request whose refusal is constant (Refusals: a path no route serves, an unknown
 *   id seen before, a write under /api/), is counted, decided and, when served, written here with one
 *   writeHead, without Express's per-request setup; over the limit, it gets the precomputed 429. A
 *   POST to /mcp whose every call is remembered (RememberedPosts) is answered the same way once its
 *   body is read. Any
 *   other request, or one the decision neither serves nor limits, is passed on to Express (with its
 *   count, so it is never counted twice).
 * - `inExpress`: the first Express middleware, for every request the listener passed on.
 */
@Injectable()
export class FrontDoor {
  private readonly policy: AdmissionPolicy;

  constructor(
    config: AppConfig,
    private readonly headers: CommonHeaders,
    private readonly limiter: RateLimiter,
    private readonly availability: AvailabilityService,
    private readonly fastPaths: FastPaths,
    private readonly responder: DocumentResponder,
    private readonly encodings: ContentEncodings,
  ) {
    this.policy = new AdmissionPolicy(config);
  }

  /**
   * The request listener in front of Express (see the class comment); `pass` hands the request to
   * Express. `refusals` and `routes` give the constant refusals answered here (Refusals), `posts`
   * the remembered POST answers.
   */
  beforeExpress(observe: Observe, trust: TrustFn, refusals: Refusals, routes: RouteTable, posts: RememberedPosts) {
    return (req: IncomingMessage, res: ServerResponse, pass: () => void): void => {
      const context = contextOf(req);
      const method = req.method;
      if (context.malformedTarget !== undefined) return pass();
      if (method === 'POST' && posts.wants(req)) {
        return posts.answer(req, res, (json) => {
          if (json === undefined) return pass();
          context.rememberedRoute = posts.route;
          this.atTheDoor(req, res, pass, observe, trust, refusals, (dynamic) => writeJson(req, res, json, this.headers.flat(), dynamic));
        });
      }
      const url = req.url!;
      const known = method === 'GET' || method === 'HEAD' ? this.fastPaths.lookup(url) : undefined;
      if (!known) {
        const refused = refusals.known(req, routes);
        if (!refused) return pass();
        context.rememberedRoute = refused.route;
        return this.atTheDoor(req, res, pass, observe, trust, refusals, (dynamic) => writeRefusal(req, res, refused.refusal, dynamic));
      }
      if (isAdmissionExempt(pathOf(url))) return pass();
      const doc = known.pick(req);
      const variant = this.encodings.choose(req.headers['accept-encoding'], doc);
      if (variant === null) return pass();
      context.rememberedRoute = known.route;
      this.atTheDoor(req, res, pass, observe, trust, refusals, (dynamic) =>
        this.responder.writeHeadOnce(req, res, { doc, variant, cacheControl: known.cacheControl }, this.headers.flat(), dynamic),
      );
    };
  }

  /**
   * Observes and counts a request the door can answer, then decides: served → `serve` writes it with
   * the per-request headers; over the limit → the precomputed 429; anything else goes on to Express
   * with its count, for the error filter or the redirect and preflight writers.
   */
  private atTheDoor(req: IncomingMessage, res: ServerResponse, pass: () => void, observe: Observe, trust: TrustFn, refusals: Refusals, serve: (dynamic: string[]) => void): void {
    const context = contextOf(req);
    const method = req.method!;
    const client = proxyaddr(req, trust);
    context.clientAddress = client;
    const id = observe(req, res);
    const answer = (limit: RateLimitState) => {
      const decision = this.policy.decide({ method, url: req.url!, secure: isSecure(req, trust), malformed: false, limit, unavailable: this.availability.unavailableReason() });
      const dynamic = ['X-Request-Id', id];
      this.limiter.pushHeaders(dynamic, limit);
      if (decision.kind === 'serve') {
        if (decision.hsts) dynamic.push('Strict-Transport-Security', HSTS);
        return serve(dynamic);
      }
      if (decision.kind === 'refuse' && limit.limited) {
        // Counted under the route the request was for (rememberedRoute), as every other answer to it.
        return writeRefusal(req, res, refusals.rateLimited(req, limit), dynamic);
      }
      context.counted = limit;
      context.rememberedRoute = undefined;
      res.setHeader('X-Request-Id', id);
      pass();
    };
    const fail = (error: unknown) => {
      context.earlyError = error;
      if (!res.headersSent) pass();
    };
    try {
      const state = this.limiter.hit(normalizeIp(client));
      if (state instanceof Promise) state.then(answer).catch(fail);
      else answer(state);
    } catch (error) {
      fail(error);
    }
  }

  /** The first Express middleware: every request `beforeExpress` passed on. */
  inExpress(trust: TrustFn) {
    return (req: Request, res: Response, next: NextFunction): void => {
      try {
        this.headers.apply(res);
        const context = contextOf(req);
        if (context.earlyError !== undefined) return next(context.earlyError);
        if (isAdmissionExempt(pathOf(req.url))) return next();
        // The client is the connecting address, or the one a trusted proxy reports (TRUST_PROXY);
        // IPv6 clients are counted per /64, the block one subscriber usually holds.
        const state = context.counted ?? this.limiter.hit(normalizeIp(req.ip ?? req.socket.remoteAddress ?? 'unknown'));
        const act = (limit: RateLimitState) => {
          this.limiter.writeHeaders(res, limit);
          const decision = this.policy.decide({
            method: req.method,
            url: req.originalUrl,
            secure: isSecure(req, trust),
            malformed: context.malformedTarget !== undefined,
            limit,
            unavailable: this.availability.unavailableReason(),
          });
          this.write(decision, res, next);
        };
        if (state instanceof Promise) state.then(act).catch(next);
        else act(state);
      } catch (error) {
        next(error);
      }
    };
  }

  /** Carries out a decision inside Express: refusals go to the error filter, which writes every error. */
  private write(decision: Admission, res: Response, next: NextFunction): void {
    switch (decision.kind) {
      case 'serve':
        if (decision.hsts) res.setHeader('Strict-Transport-Security', HSTS);
        return next();
      case 'refuse':
        if (decision.hsts) res.setHeader('Strict-Transport-Security', HSTS);
        if (decision.closeConnection) res.setHeader('Connection', 'close');
        return next(decision.problem);
      case 'redirect':
        res.statusCode = 301;
        res.setHeader('Location', decision.location);
        res.setHeader('Content-Length', '0');
        res.end();
        return;
      case 'preflight':
        if (decision.hsts) res.setHeader('Strict-Transport-Security', HSTS);
        for (const [name, value] of decision.headers) res.setHeader(name, value);
        res.statusCode = 204;
        res.setHeader('Content-Length', '0');
        res.end();
        return;
    }
  }
}

/**
 * Writes a JSON answer (status 200) with one writeHead (the per-request headers, the common ones,
 * its type and length), then its pieces in one corked write.
 */
function writeJson(req: IncomingMessage, res: ServerResponse, json: JsonChunks, common: readonly string[], dynamic: string[]): void {
  for (let i = 0; i < common.length; i++) dynamic.push(common[i]);
  dynamic.push('Content-Type', 'application/json', 'Content-Length', String(json.length));
  contextOf(req).sentBytes = json.length;
  res.writeHead(200, dynamic);
  const { chunks } = json;
  res.cork();
  for (let i = 0; i < chunks.length - 1; i++) res.write(chunks[i]);
  res.end(chunks[chunks.length - 1]);
  res.uncork();
}

/** Writes a precomputed refusal with one writeHead: the per-request headers, then its own. */
function writeRefusal(req: IncomingMessage, res: ServerResponse, refusal: Refusal, dynamic: string[]): void {
  const fixed = refusal.headers;
  for (let i = 0; i < fixed.length; i++) dynamic.push(fixed[i]);
  contextOf(req).sentBytes = refusal.body.length;
  res.writeHead(refusal.status, dynamic);
  res.end(req.method === 'HEAD' ? undefined : refusal.body);
}
