import { normalizeIp } from '@nestjs/throttler';
import type { Request } from 'express';
import { contextOf } from '../../request/request-context.js';

/** The rate-limit key of a request's client, as every counting site computes it. */
export function clientKey(req: Request): string {
  const address = contextOf(req).clientAddress ?? req.ip ?? req.socket.remoteAddress ?? 'unknown';
  return normalizeIp(address);
}
