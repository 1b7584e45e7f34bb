/**
 * A local HTTP server that answers catalogue requests from recorded answers, so that the adapters'
 * real HTTP code (pagination, retries, parsing) runs without the network: `refresh --from <dir>` and
 * the tests point each adapter's client at `baseUrlOf(provider)`. Faults can be injected per path for
 * the tests (a 429 with Retry-After, a 5xx, a stall, a malformed body). It reads only files inside the
 * directory it serves: a recording naming a file elsewhere (`../`, an absolute path, a link out) gets a 403.
 */
import { createServer, type Server } from 'node:http';
import { readFile, realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import { matchAnswer, readRecording, type Recording } from './recording.js';

/** A fault served instead of the recorded answer, `times` times, for requests to `path` of `provider`. */
export interface ReplayFault {
  provider: string;
  path: string;
  kind: 'status' | 'stall' | 'body';
  /** For `status`: the status to answer (429, 503). */
  status?: number;
  /** For `status`: the Retry-After header to send, as written. */
  retryAfter?: string;
  /** For `body`: the body to send with 200 instead of the recording. */
  body?: string;
  /** How many requests get the fault before the recording is served again; Infinity for all. */
  times: number;
}

export interface ReplayServer {
  /** The base URL an adapter's client uses for `provider`. */
  baseUrlOf(provider: string): string;
  /** The recording of `provider` in the directory (null when there is none). */
  recordingOf(provider: string): Recording | null;
  /** Adds a fault for the next requests. */
  inject(fault: ReplayFault): void;
  /** Requests served, as `provider path?query`, in order. */
  readonly served: string[];
  close(): Promise<void>;
}

/** The real path of `file` when it (after every symbolic link) lies inside `dir`, else null. */
async function insideOf(dir: string, file: string): Promise<string | null> {
  const [root, real] = await Promise.all([realpath(dir), realpath(file).catch(() => null)]);
  return real !== null && real.startsWith(root + sep) ? real : null;
}

/** Starts a replay server on a free loopback port over the recordings in `dir`. */
export async function startReplayServer(dir: string, providers: readonly string[]): Promise<ReplayServer> {
  const recordings = new Map<string, Recording>();
  for (const provider of providers) {
    const recording = await readRecording(dir, provider);
    if (recording) recordings.set(provider, recording);
  }
  const faults: ReplayFault[] = [];
  const served: string[] = [];
  const stalled = new Set<import('node:http').ServerResponse>();

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://replay.invalid');
      const [, provider, ...rest] = url.pathname.split('/');
      const path = `/${rest.join('/')}`;
      served.push(`${provider} ${path}${url.search}`);
      const fault = faults.find((f) => f.provider === provider && f.path === path && f.times > 0);
      if (fault) {
        fault.times -= 1;
        if (fault.kind === 'stall') {
          stalled.add(res);
          res.on('close', () => stalled.delete(res));
          return;
        }
        if (fault.kind === 'body') {
          res.writeHead(200, { 'content-type': 'application/json' }).end(fault.body ?? '');
          return;
        }
        res.writeHead(fault.status ?? 500, {
          'content-type': 'application/json',
          ...(fault.retryAfter !== undefined ? { 'retry-after': fault.retryAfter } : {}),
        });
        res.end(JSON.stringify({ error: `injected ${fault.status}` }));
        return;
      }
      const recording = recordings.get(provider);
      const answer = recording ? matchAnswer(recording, path, url.searchParams) : undefined;
      if (!recording || !answer) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: `no recorded answer for ${provider} ${path}${url.search}` }));
        return;
      }
      const file = await insideOf(dir, resolve(dir, provider, answer.file));
      if (!file) {
        res
          .writeHead(403, { 'content-type': 'application/json' })
          .end(
            JSON.stringify({ error: `the recorded answer for ${provider} ${path} lies outside the --from directory` }),
          );
        return;
      }
      const body = await readFile(file);
      const type = answer.file.endsWith('.xml')
        ? 'application/xml'
        : answer.file.endsWith('.json')
          ? 'application/json'
          : 'text/plain';
      res.writeHead(answer.status ?? 200, { 'content-type': type, 'content-length': body.length }).end(body);
    })().catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`replay failed: ${error.message}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrlOf: (provider) => `http://127.0.0.1:${port}/${provider}`,
    recordingOf: (provider) => recordings.get(provider) ?? null,
    inject: (fault) => faults.push({ ...fault }),
    served,
    close: async () => {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
