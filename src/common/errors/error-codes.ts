/** Every `error.code` the HTTP API answers with. */
export const ERROR_CODES = [
  'bad_request',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'not_acceptable',
  'payload_too_large',
  'rate_limited',
  'service_unavailable',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
