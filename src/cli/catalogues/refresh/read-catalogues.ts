/**
 * Step one of a refresh: read every provider's catalogue (live, or replayed from recorded answers),
 * one provider at a time, with one progress line each. A provider whose credentials are absent is
 * skipped with a line saying which variable to set; a provider whose catalogue cannot be reached
 * (network, timeout, 5xx or 429 after the client's retries, an HTTP refusal) is `unreadable`: an
 * operations failure, not a fact about its prices; one whose answer is malformed is `failed`. Either
 * way the run goes on to report the others.
 */
import type { Source } from '../../../dataset/dto/source.dto.js';
import { CatalogueClient, CatalogueHttpError, type CatalogueClientOptions } from '../catalogue-client.js';
import type { CatalogueAdapter, CatalogueReading } from '../catalogue.js';
import type { RecordedSource, Recording } from '../recording.js';
import type { ReplayServer } from '../replay-server.js';

/** Where and when the prices of a reading were seen. */
export interface ReadingProvenance {
  /** The day the provider showed these prices. */
  observedAt: string;
  /** How they were read: the provider's API (live) or a dated copy of its answers (replayed). */
  source: Source;
  /** What a partial copy leaves out of the lines it covers. */
  partial?: string;
  /** When and where the catalogue said which sizes can be ordered: the oldest plan answer the read used, by its `availabilityObservedAt` where given. */
  availability: { observedAt: string; source: Source };
}

export type ProviderOutcome =
  | {
      providerId: string;
      status: 'read';
      reading: CatalogueReading;
      provenance: ReadingProvenance;
      requests: number;
      ms: number;
    }
  | { providerId: string; status: 'skipped'; reason: string }
  | { providerId: string; status: 'failed'; reason: string }
  /** Not reached: `retryable` when a later run may succeed (network, timeout, 5xx, 429), false for a refusal (401, 403, 404). */
  | { providerId: string; status: 'unreadable'; reason: string; retryable: boolean };

export interface ReadOptions {
  /** Replay recorded answers from this server instead of calling the providers. */
  replay?: ReplayServer;
  /** The environment tokens are read from. */
  env: Record<string, string | undefined>;
  /** Today, YYYY-MM-DD: `observedAt` and `retrievedAt` of a live read. */
  today: string;
  client?: CatalogueClientOptions;
  log: (line: string) => void;
}

/** Reads each adapter's catalogue in turn. */
export async function readCatalogues(
  adapters: readonly CatalogueAdapter[],
  options: ReadOptions,
): Promise<ProviderOutcome[]> {
  const outcomes: ProviderOutcome[] = [];
  for (const adapter of adapters) outcomes.push(await readOne(adapter, options));
  return outcomes;
}

async function readOne(adapter: CatalogueAdapter, options: ReadOptions): Promise<ProviderOutcome> {
  const { providerId } = adapter;
  const recording = options.replay?.recordingOf(providerId) ?? null;
  if (options.replay && !recording) return skip(options, providerId, 'no recorded answers in the --from directory');
  let credentials: Record<string, string> = {};
  if (!options.replay) {
    const missing = adapter.credentials.filter((name) => !options.env[name]);
    if (missing.length > 0)
      return skip(
        options,
        providerId,
        `${missing.join(' and ')} not set (the catalogue needs the operator's own read-only token)`,
      );
    credentials = Object.fromEntries(adapter.credentials.map((name) => [name, options.env[name]!]));
  } else {
    // A replay checks no credentials; the adapter still sends its header, with a placeholder.
    credentials = Object.fromEntries(adapter.credentials.map((name) => [name, 'recorded']));
  }
  const baseUrl = options.replay ? options.replay.baseUrlOf(providerId) : adapter.baseUrl;
  const client = new CatalogueClient(baseUrl, options.client);
  const started = Date.now();
  const ctx = { client, credentials, log: options.log };
  try {
    const regions = await adapter.regions(ctx);
    const plans = await adapter.plans(ctx, regions);
    const addOns = await adapter.addOns(ctx);
    const endpoints = [...new Set(client.requested.map((url) => onHost(url, baseUrl, adapter.baseUrl)))];
    const reading: CatalogueReading = {
      providerId,
      currency: plans[0]?.currency ?? '',
      regions,
      plans,
      addOns,
      endpoints,
    };
    const provenance = recording
      ? recordedProvenance(recording, client.requested, baseUrl)
      : liveProvenance(endpoints, options.today);
    const ms = Date.now() - started;
    options.log(
      `${providerId}: ${plans.length} plans read in ${client.requested.length} request${client.requested.length === 1 ? '' : 's'}, ${ms} ms (prices seen ${provenance.observedAt}${recording ? ', recorded copy' : ''})`,
    );
    return { providerId, status: 'read', reading, provenance, requests: client.requested.length, ms };
  } catch (error) {
    const reason = `${(error as Error).name}: ${(error as Error).message}`;
    if (error instanceof CatalogueHttpError) {
      const retryable = isRetryable(error);
      options.log(`${providerId}: UNREADABLE${retryable ? ' (retryable)' : ''}: ${reason}`);
      return { providerId, status: 'unreadable', reason, retryable };
    }
    options.log(`${providerId}: FAILED: ${reason}`);
    return { providerId, status: 'failed', reason };
  }
}

/** No answer at all, a timeout, or a 5xx or 429 the client's retries did not get past: a later run may read it. */
function isRetryable(error: CatalogueHttpError): boolean {
  return error.status === null || error.status === 429 || error.status >= 500;
}

function skip(options: ReadOptions, providerId: string, reason: string): ProviderOutcome {
  options.log(`${providerId}: skipped: ${reason}`);
  return { providerId, status: 'skipped', reason };
}

/** A request URL as the provider's own address (a replayed request names the endpoint it replays). */
function onHost(url: string, baseUrl: string, providerBase: string): string {
  const base = baseUrl.replace(/\/$/, '');
  return url.startsWith(base) ? providerBase.replace(/\/$/, '') + url.slice(base.length) : url;
}

function liveProvenance(endpoints: string[], today: string): ReadingProvenance {
  const first = new URL(endpoints[0]);
  const source: Source = { url: `${first.origin}${first.pathname}`, retrievedAt: today, method: 'provider-api' };
  return { observedAt: today, source, availability: { observedAt: today, source } };
}

/**
 * A replay's prices are as old as the oldest recorded answer it used: the copy shows what the provider
 * answered on its own date, never the day we read the copy.
 */
function recordedProvenance(recording: Recording, requested: string[], baseUrl: string): ReadingProvenance {
  const paths = new Set(
    requested.map((url) => new URL(url).pathname.slice(new URL(baseUrl).pathname.replace(/\/$/, '').length)),
  );
  const used = recording.answers.filter((a) => paths.has(a.path) && a.planPrices !== false);
  const observedAt = used.map((a) => a.observedAt ?? recording.observedAt).sort()[0] ?? recording.observedAt;
  const oldest = used.find((a) => (a.observedAt ?? recording.observedAt) === observedAt);
  const source = oldest?.source ?? recording.source;
  const asSource = (s: RecordedSource): Source => ({
    url: s.url,
    retrievedAt: recording.retrievedAt,
    copyOf: s.copyOf,
    method: 'copy',
  });
  // Which sizes can be ordered is read from the plan answers, as of their own availability date where older.
  const seen = used
    .map((a) => ({
      observedAt: a.availabilityObservedAt ?? a.observedAt ?? recording.observedAt,
      source: (a.availabilityObservedAt ? a.availabilitySource : a.source) ?? recording.source,
    }))
    .sort((a, b) => a.observedAt.localeCompare(b.observedAt))[0];
  return {
    observedAt,
    source: asSource(source),
    ...(recording.partial ? { partial: recording.partial } : {}),
    availability: seen
      ? { observedAt: seen.observedAt, source: asSource(seen.source) }
      : { observedAt, source: asSource(source) },
  };
}
