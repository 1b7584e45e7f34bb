import type { NestExpressApplication } from '@nestjs/platform-express';
import type express from 'express';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import parseUrl from 'parseurl';
import type { Logger } from 'pino';
import { FrontDoor } from './common/http/front-door.js';
import { MalformedRequestAnswer } from './common/http/malformed-request.js';
import { Refusals } from './common/http/refusals.js';
import { RouteTable, type RouterLayer } from './common/http/route-table.js';
import { McpDoor } from './mcp/mcp-door.js';
import { MetricsService } from './observability/metrics.service.js';
import { requestObserver } from './observability/request-observer.js';
import { contextOf } from './request/request-context.js';

/** A listener that runs before Express; `pass` hands the request on to Express. */
export type BeforeExpress = (req: IncomingMessage, res: ServerResponse, pass: () => void) => void;

/**
 * Every step a request passes, in order. This is the one place the order is set:
 *
 * 0. Node's HTTP parser refuses a malformed request → MalformedRequestAnswer writes 400/408/431 to the socket.
 * 1. `routableTarget`: a target Express could not route is marked malformed (answered 400 at step 4).
 * 2. FrontDoor.beforeExpress: a GET/HEAD of a remembered document, or a request whose refusal is
 *    constant (Refusals: 404 of a path no route serves or of an unknown id seen before, 405 of a write
 *    under /api/), is observed, counted, admitted and written here (a 429 too, precomputed); so is
 *    a POST to /mcp whose every call is remembered (McpDoor: it reads the body with the endpoint's
 *    parser and applies its rules); everything else goes on to Express.
 * 3. requestObserver (Express): request id, one access-log line and metrics per request.
 * 4. FrontDoor.inExpress: common headers, the rate-limit count and headers, then the admission
 *    decision (AdmissionPolicy): 429, 400, 301 to HTTPS, 503, CORS preflight, or on.
 * 5. Nest: ReadOnlyApiMiddleware (405 for writes under /api/, see AppModule), the router and a
 *    controller, which answers through DocumentResponder (remembering opted-in documents for step 2).
 * 6. ErrorResponseFilter (APP_FILTER): every error from steps 2-5 becomes the envelope, a JSON-RPC
 *    error on /mcp, or an error page.
 *
 * Steps 0-4 run before Nest's router on purpose: a ThrottlerGuard would see only matched routes, so
 * 404s, malformed URLs, preflights and redirects would go uncounted and without headers.
 */
export function installRequestPipeline(
  app: NestExpressApplication,
  logger: Logger,
  setBeforeExpress: (listener: BeforeExpress) => void,
): void {
  const server = app.getHttpServer() as Server;
  server.on('clientError', app.get(MalformedRequestAnswer).listener);
  const instance = app.getHttpAdapter().getInstance() as express.Express & { router: { stack: RouterLayer[] } };
  const trust = instance.get('trust proxy fn');
  const observer = requestObserver(logger, app.get(MetricsService));
  const frontDoor = app.get(FrontDoor);
  // Express's own router says which paths some route serves; read once the routes are registered.
  const routes = new RouteTable(() => instance.router.stack);
  setBeforeExpress(frontDoor.beforeExpress(observer.observe, trust, app.get(Refusals), routes, app.get(McpDoor)));
  app.use(observer.middleware);
  app.use(frontDoor.inExpress(trust));
}

/**
 * Step 1. Express's router skips every middleware when the request target yields no path (Node's
 * legacy URL parser reads `//?#@x` as an empty authority) and answers with its bare HTML 404: no
 * common headers, no count against the limit, no log line. Such a target is marked malformed and
 * given a routable path, so the front door counts it and answers 400 in the documented shape.
 */
export function routableTarget(next: RequestListener): RequestListener {
  return (req, res) => {
    if (parseUrl(req)?.pathname == null) {
      contextOf(req).malformedTarget = req.url;
      req.url = '/';
    }
    next(req, res);
  };
}
