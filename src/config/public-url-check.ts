import { hostname, networkInterfaces } from 'node:os';
import type { AppConfig } from './app-config.js';

const WILDCARDS = new Set(['0.0.0.0', '::', '[::]']);
const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** The port a URL names, or its scheme's default. */
function portOf(url: URL): number {
  return url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
}

/** Names and addresses of this machine: loopback, its host name and the addresses of its interfaces. */
function ownNames(): Set<string> {
  const names = new Set([...LOOPBACK, hostname().toLowerCase()]);
  for (const addresses of Object.values(networkInterfaces()))
    for (const a of addresses ?? []) names.add(a.address.toLowerCase());
  return names;
}

/**
 * Why PUBLIC_BASE_URL does not name the server listening on `host`:`port`, or undefined when it does.
 * Absolute URLs in responses (self, url, Link headers, the MCP endpoint) are built from it, so a local
 * start with a stale PUBLIC_BASE_URL hands out links to another server. Behind a proxy or an ingress
 * the difference is expected, and the message says so.
 */
export function publicUrlMismatch(
  publicBaseUrl: string,
  host: string,
  port: number,
  names: Set<string> = ownNames(),
): string | undefined {
  const url = new URL(publicBaseUrl);
  const publicHost = url.hostname.toLowerCase();
  const listenHost = host.toLowerCase();
  const problems: string[] = [];
  if (portOf(url) !== port) problems.push(`port ${portOf(url)}, not ${port}`);
  const sameHost = WILDCARDS.has(listenHost)
    ? names.has(publicHost)
    : publicHost === listenHost || (LOOPBACK.has(publicHost) && LOOPBACK.has(listenHost));
  if (!sameHost) problems.push(`host ${publicHost}, not ${WILDCARDS.has(listenHost) ? 'this machine' : listenHost}`);
  if (problems.length === 0) return undefined;
  return (
    `PUBLIC_BASE_URL ${publicBaseUrl} names ${problems.join(' and ')}: absolute URLs in responses point there. ` +
    `Right behind a proxy or ingress that serves that address; for a local run, unset PUBLIC_BASE_URL (it follows PORT).`
  );
}

/** Warns on standard error when PUBLIC_BASE_URL names another host or port than the server listens on. */
export function warnIfPublicUrlElsewhere(config: AppConfig, port: number): void {
  const mismatch = publicUrlMismatch(config.publicBaseUrl, config.host, port);
  if (mismatch) console.warn(`Warning: ${mismatch}`);
}
