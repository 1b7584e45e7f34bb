import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import type { IncomingHttpHeaders } from 'node:http';

/** The longest verdict key kept. */
const VETTED_KEY_CHARS = 2048;

/**
 * What the endpoint's verdict on a single request depends on, as one string (`key`; with the answer
 * cache's key of the request, `canonical`, inside it), or undefined when the request must go to the
 * controller, which applies the rules in full: a batch; a body with other members than `jsonrpc`, `id`,
 * `method` and `params`; an id the message schema would not take as it is (a string or a safe
 * integer); `params` that is not an object (null is keyed as absent); the 2026-07-28 method headers;
 * a key too long to keep. The rest of the verdict rests on the headers and the request without its
 * id, which the key holds: Host and Origin (McpAccessGuard), Accept and Content-Type (the transport
 * rules), and the answer cache's canonical key (the declared protocol version, the method, the params
 * with sorted keys).
 */
export function vettingKeyOf(headers: IncomingHttpHeaders, body: unknown): { key: string; canonical: string } | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  if (headers['mcp-method'] !== undefined || headers['mcp-name'] !== undefined) return undefined;
  const message = body as Record<string, unknown>;
  let members = 0;
  for (const name in message) {
    if (name !== 'jsonrpc' && name !== 'id' && name !== 'method' && name !== 'params') return undefined;
    members++;
  }
  const { jsonrpc, id, method, params } = message;
  if (jsonrpc !== '2.0' || typeof method !== 'string' || members !== (params === undefined ? 3 : 4)) return undefined;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) return undefined;
  let canonical: string;
  try {
    canonical = canonicalKey(message as unknown as JSONRPCRequest, headers['mcp-protocol-version']);
  } catch {
    return undefined;
  }
  const key = `${headers.host}\n${headers.origin}\n${headers.accept}\n${headers['content-type']}\n${canonical}`;
  return key.length <= VETTED_KEY_CHARS ? { key, canonical } : undefined;
}

/** The request without its id: method, params with sorted keys, and the declared protocol version. */
export function canonicalKey(request: JSONRPCRequest, protocolVersion: string | string[] | undefined): string {
  const version = typeof protocolVersion === 'string' ? protocolVersion : Array.isArray(protocolVersion) ? protocolVersion.join(',') : '';
  return `${version}\n${request.method}\n${canonicalJson(request.params ?? null)}`;
}

/**
 * JSON with every object's keys in sorted order, so that argument order does not split the cache.
 * Built by appending (no per-key arrays) because the front door computes it for every remembered call.
 */
function canonicalJson(value: unknown): string {
  // A number the parser read as non-finite (`1e400` is Infinity) is not `null`, though JSON.stringify writes
  // both so: it keys as a token no JSON text produces, so it never shares an answer with `null`.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (!inOrder(keys)) keys.sort();
  let out = '{';
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(item)}`;
  }
  return `${out}}`;
}

/** Whether `keys` are already in the order `sort()` would give them (code unit order). */
function inOrder(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1] > keys[i]) return false;
  return true;
}
