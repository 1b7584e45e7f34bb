import type { Logger } from 'pino';
import { truncatedAddress } from './client-address.js';
import type { MetricsService } from './metrics.service.js';

/** What is known of a request Node's HTTP parser refused: no IncomingMessage exists for it. */
export interface RefusedRequest {
  id: string;
  /** The request line's method and target, when the parser read them. */
  method?: string;
  url?: string;
  remoteAddress?: string;
  status: number;
  bytes: number;
}

/**
 * Observes a request Node's HTTP parser refused (MalformedRequestAnswer) as the access log and metrics
 * observe every other: one metrics sample and one line with the fields pino-http's lines carry. It was
 * answered before any routing, so its route is `unmatched`; its method and path are the request line's
 * when the parser read one, `-` otherwise; its duration is not known (Node gives no start time): 0.
 * Without `logger`, only the sample: the access log writes the line of a request it already saw.
 */
export function observeRefusedRequest(
  logger: Logger | undefined,
  metrics: MetricsService,
  refused: RefusedRequest,
): void {
  const method = refused.method ?? '-';
  const url = refused.url ?? '-';
  const q = url.indexOf('?');
  metrics.observeRequest(method, 'unmatched', refused.status, 0);
  if (!logger) return;
  const line = {
    reqId: refused.id,
    req: {
      method,
      path: (q === -1 ? url : url.slice(0, q)).slice(0, 200),
      client: truncatedAddress(refused.remoteAddress),
    },
    res: { status: refused.status, bytes: refused.bytes },
    durationMs: 0,
    route: 'unmatched',
  };
  const message = `${method} unmatched ${refused.status}`;
  if (refused.status >= 500) logger.error(line, message);
  else logger.info(line, message);
}
