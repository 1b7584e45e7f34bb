import type { IncomingMessage } from 'node:http';

/**
 * The route a request matched, as a template (`/api/providers/:providerId.json`), for logs and metric
 * labels: bounded cardinality, no ids. Requests answered before routing (429, 301, preflight, 503) or
 * by no route are `unmatched`.
 */
export function routeTemplate(req: IncomingMessage & { route?: { path?: unknown } }): string {
  const route = req.route?.path;
  const path = Array.isArray(route) ? String(route[0]) : route;
  // Catch-all middleware routes ({/*splat}) are not where a request was answered.
  return typeof path === 'string' && !path.includes('*') ? path : 'unmatched';
}
