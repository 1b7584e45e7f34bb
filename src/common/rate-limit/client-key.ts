import { normalizeIp } from '@nestjs/throttler';
import type { Request } from 'express';
import { clientAddressOf } from '../../request/request-context.js';

/**
 * The rate-limit key of a request's client, as the guard and every named exception compute it: `req.ip`
 * (Express applies TRUST_PROXY), IPv6 per /64.
 */
export function clientKey(req: Request): string {
  const address = clientAddressOf(req) ?? 'unknown';
  return normalizeIp(address);
}
