import type { RequestListener } from 'node:http';
import parseUrl from 'parseurl';
import { contextOf } from './request/request-context.js';

/**
 * Every step a request passes, in order (docs/architecture.md draws the same map):
 *
 * 0. Node's HTTP parser refuses a malformed request → MalformedRequestAnswer writes 400/408/431.
 * 1. `routableTarget`: a target Express could not route is marked malformed (answered 400 in step 5).
 * 2. FrontDoor (FRONT_DOOR=on): the replay cache. It observes and counts the request, decides with
 *    AdmissionPolicy.decide, and answers the 429, a remembered document, a remembered refusal or a
 *    remembered MCP answer itself; anything else goes on, marked as counted.
 * 3. Express: requestObserver's middleware (request id, access log, metrics) for requests step 2 did
 *    not observe; then Nest's router, where the catch-all FallbackController makes every path a route.
 * 4. RateLimitGuard (APP_GUARD): counts the request (unless step 2 did); over the limit → 429.
 *    McpAccessGuard on /mcp: Host and Origin.
 * 5. AdmissionInterceptor (APP_INTERCEPTOR): common and RateLimit-* headers; 301 to HTTPS, 204
 *    preflight, 503, 400 for a malformed target, or on to the controller.
 * 6. The controller answers through DocumentResponder (recording `sendRemembered` documents for step 2).
 * 7. ErrorResponseFilter (APP_FILTER): every error becomes the envelope, a JSON-RPC error on /mcp, or
 *    an error page; it counts a request that failed before step 4 and records 404s and 405s for step 2.
 */
export function routableTarget(next: RequestListener): RequestListener {
  // Express's router skips every middleware when the request target yields no path (Node's legacy URL
  // parser reads `//?#@x` as an empty authority) and answers with its bare HTML 404: no headers, no
  // count, no log line. Such a target is marked malformed and given a routable path instead.
  return (req, res) => {
    if (parseUrl(req)?.pathname == null) {
      contextOf(req).malformedTarget = req.url;
      req.url = '/';
    }
    next(req, res);
  };
}
