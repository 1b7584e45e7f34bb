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
