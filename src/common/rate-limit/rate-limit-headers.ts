import type { RateLimitState } from '../../request/request-context.js';

/** The rate-limit headers, in the order they are documented. */
export const RATE_LIMIT_HEADERS = {
  limit: 'RateLimit-Limit',
  remaining: 'RateLimit-Remaining',
  reset: 'RateLimit-Reset',
  policy: 'RateLimit-Policy',
  retryAfter: 'Retry-After',
} as const;

/** `RateLimit-Policy` value: `<requests>;w=<window seconds>`. */
export const rateLimitPolicy = (requests: number, windowSeconds: number) => `${requests};w=${windowSeconds}`;

/**
 * The `RateLimit-*` headers of a count (and Retry-After when it is over the limit): what CommonHeaders
 * writes on every counted answer and error. `windowSeconds` is the configured window of the policy.
 */
export function rateLimitHeaders(state: RateLimitState, windowSeconds: number): [string, string][] {
  const headers: [string, string][] = [
    [RATE_LIMIT_HEADERS.limit, String(state.limit)],
    [RATE_LIMIT_HEADERS.remaining, String(state.remaining)],
    [RATE_LIMIT_HEADERS.reset, String(state.resetSeconds)],
    [RATE_LIMIT_HEADERS.policy, rateLimitPolicy(state.limit, windowSeconds)],
  ];
  if (state.limited) headers.push([RATE_LIMIT_HEADERS.retryAfter, String(state.resetSeconds)]);
  return headers;
}
