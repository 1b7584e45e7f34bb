import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AppConfig } from '../config/app-config.js';
import type { IncomingHttpHeaders } from 'node:http';
import { forbidden } from '../common/errors/problems.js';

/** The host name of a Host header, lowercase and without port; IPv6 stays in brackets. */
export function hostnameOf(host: string | undefined): string | undefined {
  if (!host || host.length > 255) return undefined;
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * DNS-rebinding protection for /mcp (a guard on McpHttpController, so it runs after the rate-limit
 * guard: a refusal is counted and carries the headers), before the body is read: the Host must name
 * this server (MCP_ALLOWED_HOSTS) and a browser Origin must be allowed (MCP_ALLOWED_ORIGINS, `*` by
 * default, since the data is public and carries no credentials). A refusal is 403 with a JSON-RPC error.
 */
@Injectable()
export class McpAccessGuard implements CanActivate {
  private readonly hosts: ReadonlySet<string>;
  private readonly origins?: ReadonlySet<string>;

  constructor(config: AppConfig) {
    this.hosts = new Set(config.mcp.allowedHosts);
    this.origins = config.mcp.allowedOrigins === '*' ? undefined : new Set(config.mcp.allowedOrigins);
  }

  canActivate(context: ExecutionContext): boolean {
    const refused = this.refused(context.switchToHttp().getRequest<Request>().headers);
    if (refused) throw forbidden(refused);
    return true;
  }

  /** The header that refuses the request, if any. */
  private refused(headers: IncomingHttpHeaders): 'Host' | 'Origin' | undefined {
    if (!this.allowsHost(headers.host)) return 'Host';
    const origin = headers.origin;
    if (origin !== undefined && this.origins && !this.origins.has(origin)) return 'Origin';
    return undefined;
  }

  /** Host header values seen before, and whether they name this server (clients send one or two). */
  private readonly hostAnswers = new Map<string, boolean>();

  private allowsHost(host: string | undefined): boolean {
    if (host === undefined) return false;
    const known = this.hostAnswers.get(host);
    if (known !== undefined) return known;
    const hostname = hostnameOf(host);
    const allowed = hostname !== undefined && this.hosts.has(hostname);
    if (host.length <= 255 && this.hostAnswers.size < MAX_REMEMBERED_HOSTS) this.hostAnswers.set(host, allowed);
    return allowed;
  }
}

/** Distinct Host values remembered; past that each is parsed again (a Host is at most 255 characters). */
const MAX_REMEMBERED_HOSTS = 64;
