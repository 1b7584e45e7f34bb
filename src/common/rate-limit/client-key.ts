import { normalizeIp } from '@nestjs/throttler';
import type { Request } from 'express';

/**
 * The rate-limit key of a request's client, as the guard and every named exception compute it: `req.ip`
 * (Express applies TRUST_PROXY), IPv6 per /64.
 */
export function clientKey(req: Request): string {
  const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  return normalizeIp(address);
}
