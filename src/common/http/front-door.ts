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

/** Starts observing a request (request id, access log, metrics) and returns its id. */
export type Observe = (req: IncomingMessage, res: ServerResponse) => string;

/**
 * The first step of every request, at two entry points that share one admission decision
 * (AdmissionPolicy.decide): stamps the common headers, counts the request exactly once and writes the
 * rate-limit headers, then serves, refuses (429, 400, 503 through the error filter), redirects plain
 * HTTP (301) or answers a CORS preflight (204). The two entry points differ only in how they write:
 *
 * - `beforeExpress`: a request listener in front of Express. A GET or HEAD of a remembered document
 *   (FastPaths) is counted, decided and, when served, written here with one writeHead, without
 *   Express's per-request setup. Any other request, or one the decision does not serve, is passed on
 *   to Express (with its count, so it is never counted twice).
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

  /** The request listener in front of Express (see the class comment); `pass` hands the request to Express. */
  beforeExpress(observe: Observe, trust: TrustFn) {
    return (req: IncomingMessage, res: ServerResponse, pass: () => void): void => {
      const context = contextOf(req);
      const method = req.method;
      if ((method !== 'GET' && method !== 'HEAD') || context.malformedTarget !== undefined) return pass();
      const url = req.url!;
      const known = this.fastPaths.lookup(url);
      if (!known || isAdmissionExempt(pathOf(url))) return pass();
      const doc = known.pick(req);
      const variant = this.encodings.choose(req.headers['accept-encoding'], doc);
      if (variant === null) return pass();

      const client = proxyaddr(req, trust);
      context.clientAddress = client;
      context.rememberedRoute = known.route;
      const id = observe(req, res);
      const answer = (limit: RateLimitState) => {
        const decision = this.policy.decide({ method, url, secure: isSecure(req, trust), malformed: false, limit, unavailable: this.availability.unavailableReason() });
        if (decision.kind !== 'serve') {
          context.counted = limit;
          res.setHeader('X-Request-Id', id);
          return pass();
        }
        const dynamic = ['X-Request-Id', id];
        this.limiter.pushHeaders(dynamic, limit);
        if (decision.hsts) dynamic.push('Strict-Transport-Security', HSTS);
        this.responder.writeHeadOnce(req, res, { doc, variant, cacheControl: known.cacheControl }, this.headers.flat(), dynamic);
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
    };
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
