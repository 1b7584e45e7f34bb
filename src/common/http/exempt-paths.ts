/**
 * Probes of the orchestrator: never rate limited, never redirected, never refused for maintenance,
 * so that a busy or draining instance still reports its own health.
 */
export const EXEMPT_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/** The path of a request URL, without its query. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
