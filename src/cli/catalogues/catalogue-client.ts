/**
 * The HTTP client every catalogue adapter reads through: GET only, JSON or text, a timeout per
 * attempt, and retries with exponential backoff on 429 and 5xx that honour `Retry-After`. It names the
 * project in `User-Agent`. The base URL is the provider's API host, or a local replay of recorded
 * answers (`refresh --from`, the tests): the adapters' HTTP code is the same either way.
 */
import { CatalogueFormatError } from './catalogue-format-error.js';

export const USER_AGENT = 'vpsapi-catalogue-refresher/1.0 (+https://github.com/vpsapi; read-only price refresh)';

export interface CatalogueClientOptions {
  /** Milliseconds one attempt may take before it is abandoned (and retried). */
  timeoutMs?: number;
  /** Attempts in all, the first included. */
  maxAttempts?: number;
  /** First backoff; doubled each retry, with up to 20% jitter. */
  baseDelayMs?: number;
  /** The longest `Retry-After` honoured; a longer one ends the read instead of stalling the job. */
  maxRetryAfterMs?: number;
  /** The largest body one answer may have; a larger one ends the read (the Job has 512 MiB in all). */
  maxBodyBytes?: number;
  /** Waits; replaced in tests to record the delays. */
  sleep?: (ms: number) => Promise<void>;
}

/** A catalogue request that did not succeed, after every retry it was allowed. */
export class CatalogueHttpError extends Error {
  override name = 'CatalogueHttpError';
  constructor(
    message: string,
    readonly url: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

export interface CatalogueRequest {
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
}

const RETRYABLE = (status: number) => status === 429 || status >= 500;
/** Far above the largest catalogue answer recorded (60 KB) and the largest the providers document. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;
/** Redirects followed in one request, each on the same origin. */
const MAX_REDIRECTS = 5;

export class CatalogueClient {
  private readonly timeoutMs: number;
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxRetryAfterMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly maxBodyBytes: number;
  /** Requests made, in order (absolute URLs): the refresher reports them. */
  readonly requested: string[] = [];

  constructor(
    /** Where requests go: `https://api.hetzner.cloud` or a replay server's `http://127.0.0.1:port/hetzner`. */
    readonly baseUrl: string,
    options: CatalogueClientOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.maxAttempts = options.maxAttempts ?? 4;
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  }

  /** GETs `path` and parses the answer as JSON; a body that is not JSON is a CatalogueFormatError. */
  async getJson<T = unknown>(path: string, request: CatalogueRequest = {}): Promise<T> {
    const { url, body } = await this.get(path, request, 'application/json');
    try {
      return JSON.parse(body) as T;
    } catch {
      throw new CatalogueFormatError(
        `${url} answered with a body that is not JSON (${body.length} bytes, starting ${JSON.stringify(body.slice(0, 40))})`,
      );
    }
  }

  /** GETs `path` and returns the body as text (the ECB's XML). */
  async getText(path: string, request: CatalogueRequest = {}): Promise<string> {
    return (await this.get(path, request, '*/*')).body;
  }

  /** The absolute URL of `path` with `query`, on this client's base. */
  urlOf(path: string, query: CatalogueRequest['query'] = {}): string {
    const url = new URL(this.baseUrl.replace(/\/$/, '') + (path.startsWith('/') ? path : `/${path}`));
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
    return url.toString();
  }

  private async get(path: string, request: CatalogueRequest, accept: string): Promise<{ url: string; body: string }> {
    const url = this.urlOf(path, request.query);
    this.requested.push(url);
    let lastProblem = '';
    for (let attempt = 1; attempt <= this.maxAttempts; attempt++) {
      let wait = this.backoff(attempt);
      try {
        const response = await this.fetchOnOrigin(url, { 'user-agent': USER_AGENT, accept, ...request.headers });
        const body = await this.bodyOf(url, response);
        if (response.ok) return { url, body };
        lastProblem = `HTTP ${response.status}`;
        if (!RETRYABLE(response.status))
          throw new CatalogueHttpError(
            `${url} answered ${response.status}${hint(response.status)}`,
            url,
            response.status,
          );
        const retryAfter = retryAfterMs(response.headers.get('retry-after'));
        if (retryAfter !== null) {
          if (retryAfter > this.maxRetryAfterMs) {
            throw new CatalogueHttpError(
              `${url} answered ${response.status} with Retry-After ${Math.ceil(retryAfter / 1000)} s, longer than the ${this.maxRetryAfterMs / 1000} s this run waits`,
              url,
              response.status,
            );
          }
          wait = retryAfter;
        }
      } catch (error) {
        if (error instanceof CatalogueHttpError || error instanceof CatalogueFormatError) throw error;
        const name = (error as Error).name;
        lastProblem =
          name === 'TimeoutError'
            ? `no answer within ${this.timeoutMs} ms`
            : `${(error as Error).message}${causeOf(error)}`;
      }
      if (attempt < this.maxAttempts) await this.sleep(wait);
    }
    throw new CatalogueHttpError(`${url}: ${lastProblem} after ${this.maxAttempts} attempts`, url, null);
  }

  /**
   * Fetches `url`, following redirects only on its own origin: a catalogue that redirects elsewhere (another
   * host, a cloud metadata address, a private network) is refused, never followed with our headers.
   */
  private async fetchOnOrigin(url: string, headers: Record<string, string>): Promise<Response> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    let target = url;
    for (let hop = 0; ; hop++) {
      const response = await fetch(target, { headers, signal, redirect: 'manual' });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) return response;
      await response.body?.cancel();
      const next = new URL(location, target);
      if (next.origin !== new URL(url).origin)
        throw new CatalogueHttpError(
          `${url} redirects to ${next.origin}, another origin than the catalogue's: not followed`,
          url,
          response.status,
        );
      if (hop >= MAX_REDIRECTS)
        throw new CatalogueHttpError(`${url} redirects more than ${MAX_REDIRECTS} times`, url, response.status);
      target = next.toString();
    }
  }

  /** The body as text, refused as soon as it is longer than the cap (by its Content-Length, else while it streams). */
  private async bodyOf(url: string, response: Response): Promise<string> {
    const tooLong = (bytes: string) =>
      new CatalogueFormatError(
        `${url} answered with ${bytes} bytes, over the ${this.maxBodyBytes}-byte cap on one answer`,
      );
    const declared = Number(response.headers.get('content-length'));
    if (declared > this.maxBodyBytes) {
      await response.body?.cancel();
      throw tooLong(String(declared));
    }
    if (!response.body) return '';
    const chunks: Uint8Array[] = [];
    let total = 0;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > this.maxBodyBytes) {
        await reader.cancel();
        throw tooLong(`more than ${this.maxBodyBytes}`);
      }
      chunks.push(value);
    }
    return new TextDecoder().decode(Buffer.concat(chunks));
  }

  private backoff(attempt: number): number {
    const delay = this.baseDelayMs * 2 ** (attempt - 1);
    return Math.round(delay * (1 + Math.random() * 0.2));
  }
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function hint(status: number): string {
  if (status === 401 || status === 403) return ': the token is missing, wrong or lacks read access';
  if (status === 404) return ': the endpoint is not there (has the API moved?)';
  return '';
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause ? ` (${cause.code ?? cause.message})` : '';
}
