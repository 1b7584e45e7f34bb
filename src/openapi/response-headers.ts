import type { AppConfig } from '../config/app-config.js';
import { RATE_LIMIT_HEADERS, rateLimitPolicy } from '../common/rate-limit/rate-limit-headers.js';
import { CACHE_CONTROL } from '../common/http/cache-policy.js';

interface HeaderDoc {
  description: string;
  schema: Record<string, unknown>;
}

const integer = { type: 'integer', minimum: 0 };
const text = { type: 'string' };

/** Every response header the API sends, documented once and referenced from each response. */
export function headerComponents(config: AppConfig): Record<string, HeaderDoc> {
  const { requests, windowSeconds } = config.rateLimit;
  return {
    [RATE_LIMIT_HEADERS.limit]: { description: `Requests allowed per window (${requests}).`, schema: integer },
    [RATE_LIMIT_HEADERS.remaining]: { description: 'Requests left in the current window.', schema: integer },
    [RATE_LIMIT_HEADERS.reset]: { description: 'Seconds until the current window resets.', schema: integer },
    [RATE_LIMIT_HEADERS.policy]: {
      description: 'The limit policy: requests per window of `w` seconds.',
      schema: { type: 'string', examples: [rateLimitPolicy(requests, windowSeconds)] },
    },
    [RATE_LIMIT_HEADERS.retryAfter]: { description: 'Seconds to wait before retrying.', schema: integer },
    'X-API-Version': {
      description: 'Dataset version that answered, `YYYY-MM-DD`.',
      schema: { type: 'string', examples: ['2026-11-26'] },
    },
    'Access-Control-Allow-Origin': {
      description: 'Always `*`: the data is public.',
      schema: { type: 'string', const: '*' },
    },
    ETag: { description: 'Strong entity tag of the body; send it back in `If-None-Match`.', schema: text },
    'Cache-Control': { description: `\`${CACHE_CONTROL}\` on documents; \`no-store\` on errors.`, schema: text },
    'Last-Modified': { description: 'Day the dataset prices were last verified, as an HTTP-date.', schema: text },
    Deprecation: {
      description: 'Present when the body carries a deprecated field (RFC 9745): `@<epoch seconds>`.',
      schema: text,
    },
    Sunset: {
      description: 'Present with `Deprecation`: HTTP-date after which the field may be removed.',
      schema: text,
    },
    Link: {
      description: 'Present with `Deprecation`: `<url>; rel="deprecation"` pointing to the migration notes.',
      schema: text,
    },
    'Content-Disposition': {
      description: 'On downloads: `attachment; filename="<name>"`, the file name to save the body as.',
      schema: text,
    },
    Location: {
      description: 'Where the same path and query are served over HTTPS.',
      schema: { type: 'string', format: 'uri' },
    },
    Allow: { description: 'Methods this path answers: `GET, HEAD, OPTIONS`.', schema: text },
    'X-Request-Id': {
      description: 'Identifier of the failed request; quote it when reporting a problem.',
      schema: text,
    },
  };
}

const COMMON = ['X-API-Version', 'Access-Control-Allow-Origin', ...Object.values(RATE_LIMIT_HEADERS).slice(0, 4)];
const VALIDATORS = ['ETag', 'Cache-Control', 'Last-Modified'];

/** The headers each status carries, by name; every status an operation documents must be listed. */
export const HEADERS_BY_STATUS: Record<string, string[]> = {
  '200': [...COMMON, ...VALIDATORS, 'Deprecation', 'Sunset', 'Link'],
  '301': [...COMMON, 'Location'],
  '304': [...COMMON, ...VALIDATORS],
  '400': [...COMMON],
  '404': [...COMMON],
  '405': [...COMMON, 'Allow'],
  '406': [...COMMON],
  '408': [...COMMON],
  '431': [...COMMON],
  '429': [...COMMON, RATE_LIMIT_HEADERS.retryAfter],
  '500': [...COMMON, 'X-Request-Id'],
  '503': [...COMMON, RATE_LIMIT_HEADERS.retryAfter],
};
