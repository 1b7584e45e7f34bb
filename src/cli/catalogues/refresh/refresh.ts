/**
 * `npm run data:refresh`: reads the providers' catalogues, shows what would change, gates what is
 * implausible, and with `--write` releases the accepted change as a new dataset version through the
 * release machinery (validator, changelog, Atom feed, price history). A refused or failed run writes
 * nothing; a run that finds no change writes nothing and says so.
 */
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderRecord } from '../../../dataset/dto/provider.dto.js';
import { InvalidDatasetError } from '../../../dataset/dataset-loader.js';
import { generateGuides } from '../../guides-generator/generate.js';
import { CHANGELOG_FILE, releaseDataset, releaseDir, ReleaseRefusedError } from '../../releases/release-dataset.js';
import { CatalogueClient, type CatalogueClientOptions } from '../catalogue-client.js';
import type { CatalogueAdapter } from '../catalogue.js';
import type { ExchangeRatesRecord } from '../../../dataset/dto/exchange-rates.dto.js';
import { ECB_BASE_URL, readEcbRates } from '../ecb-rates.js';
import { applyRateReadings, readPartialReadings, type RateReading } from '../rate-readings.js';
import { printable } from '../printable.js';
import { startReplayServer, type ReplayServer } from '../replay-server.js';
import { contradictedProse, type Contradiction } from './contradicted-prose.js';
import { currentPoint, GATE_BASELINE_FILE, readGateBaseline, rolledPoint, type GateBaseline } from './gate-baseline.js';
import { refreshedProvider, sellablePlans } from './plan-records.js';
import { readCatalogues, type ProviderOutcome } from './read-catalogues.js';
import {
  describeDiff,
  diffProvider,
  gateCases,
  isEmptyDiff,
  olderReadingCase,
  rateCase,
  type GateCase,
  type ProviderDiff,
} from './refresh-diff.js';

/** The review a refusal writes, by default in the system's temporary directory (`TMPDIR`). */
export const REVIEW_FILE = 'vpsapi-refresh-review.md';

/** The folder and log name of the ECB's reference rates, read beside the providers. */
export const ECB_ID = 'ecb';

export interface RefreshOptions {
  /** The dataset directory read and, with `write`, written. */
  dataDir: string;
  adapters: readonly CatalogueAdapter[];
  /** Recorded answers to replay instead of the network. */
  from?: string;
  write: boolean;
  /** Gate case ids the operator accepts. */
  accept: ReadonlySet<string>;
  /** The release date, YYYY-MM-DD. */
  date: string;
  /** Where a refusal writes its review. */
  reviewFile: string;
  env: Record<string, string | undefined>;
  client?: CatalogueClientOptions;
  log: (line: string) => void;
}

export interface RefreshResult {
  /**
   * 0 written or nothing to write; 1 failed, or a provider could not be read (what the others gave is
   * still released); 2 refused by the gate.
   */
  exitCode: 0 | 1 | 2;
  outcomes: ProviderOutcome[];
  diffs: ProviderDiff[];
  cases: GateCase[];
  contradictions: Contradiction[];
  /** The version released, when one was. */
  released?: string;
}

export async function runRefresh(options: RefreshOptions): Promise<RefreshResult> {
  // Every line may quote a catalogue (plan names, error bodies): none reaches the terminal as escape codes.
  const sink = options.log;
  const log = (line: string) => sink(printable(line));
  options = { ...options, log };
  const replay = options.from
    ? await startReplayServer(options.from, [...options.adapters.map((a) => a.providerId), ECB_ID])
    : undefined;
  try {
    const providersFile = JSON.parse(await readFile(join(options.dataDir, 'providers.json'), 'utf8')) as {
      recommendations: unknown;
      providers: ProviderRecord[];
    };
    const ratesFile = JSON.parse(
      await readFile(join(options.dataDir, 'exchange-rates.json'), 'utf8'),
    ) as ExchangeRatesRecord;

    const outcomes = await readCatalogues(options.adapters, {
      replay,
      env: options.env,
      today: options.date,
      client: options.client,
      log,
    });
    for (const provider of providersFile.providers.filter(
      (p) => !options.adapters.some((a) => a.providerId === p.id),
    )) {
      log(`${provider.id}: editorial, no catalogue to read (its prices stay as the editors wrote them)`);
    }
    const baseline = await readGateBaseline(options.dataDir);
    const rates = await readRates(replay, options, ratesFile);

    const cases: GateCase[] = [];
    const diffs: ProviderDiff[] = [];
    const refreshed: Refreshed[] = [];
    const next = structuredClone(providersFile);
    for (const outcome of outcomes) {
      const adapter = options.adapters.find((a) => a.providerId === outcome.providerId)!;
      const index = next.providers.findIndex((p) => p.id === outcome.providerId);
      if (outcome.status === 'skipped' || outcome.status === 'unreadable') continue;
      if (index < 0) {
        cases.push({
          id: `${outcome.providerId}:catalogue`,
          why: `the dataset has no provider "${outcome.providerId}"`,
        });
        continue;
      }
      if (outcome.status === 'failed') {
        cases.push({
          id: `${outcome.providerId}:catalogue`,
          why: `the catalogue could not be read (${outcome.reason}); accept to release without this provider's refresh`,
        });
        continue;
      }
      if (sellablePlans(outcome.reading, adapter).length === 0) {
        cases.push({
          id: `${outcome.providerId}:catalogue`,
          why: "the catalogue lists no size that is sold in the lines the dataset covers; accept to release without this provider's refresh",
        });
        continue;
      }
      const before = next.providers[index];
      const unknownLines = [...new Set(sellablePlans(outcome.reading, adapter).map((p) => p.line))].filter(
        (id) => !before.planLines.some((l) => l.id === id),
      );
      if (unknownLines.length > 0) {
        cases.push({
          id: `${outcome.providerId}:catalogue`,
          why: `the catalogue sells sizes in line${unknownLines.length === 1 ? '' : 's'} ${unknownLines.join(', ')}, which providers.json does not define: add the line (name, priceBasis, priceList) before releasing them`,
        });
        continue;
      }
      const older = olderReadingCase(
        outcome.providerId,
        outcome.provenance.observedAt,
        before.plans.filter((p) => adapter.lines.includes(p.line)).map((p) => p.observedAt),
      );
      if (older) cases.push(older);
      const after = refreshedProvider(before, outcome.reading, adapter, outcome.provenance);
      const deprecated = outcome.reading.plans.filter((p) => p.deprecated && adapter.lines.includes(p.line));
      const diff = diffProvider(before, after, adapter.lines, deprecated);
      const own = gateCases(diff, before, (id) => currentPoint(baseline.prices[id], options.date));
      cases.push(...own);
      diffs.push(diff);
      if (isEmptyDiff(diff)) {
        log(`${outcome.providerId}: no change`);
        continue;
      }
      log(`${outcome.providerId}: ${summary(diff)}`);
      for (const line of describeDiff(diff)) log(line);
      // An unaccepted case keeps the provider as it is, so the review lists everything at once.
      if (own.every((c) => options.accept.has(c.id))) {
        next.providers[index] = withSources(after, outcome.provenance.source);
        refreshed.push({ before, after, managed: adapter.lines });
      }
    }
    if (rates.changed) {
      log(
        `${ECB_ID}: ${rates.moves.length} rate${rates.moves.length === 1 ? '' : 's'} of a newer day; the oldest rate is now of ${rates.next.date} (was ${ratesFile.date})`,
      );
      for (const move of rates.moves) {
        log(
          `  ~ ${move.code} per EUR ${move.from.rate} (${move.from.date}) -> ${move.to.rate} (${move.to.date}${move.whole ? '' : ', a copy'})`,
        );
        if (move.from.rate === move.to.rate) continue;
        const id = `${ECB_ID}:${move.code}`;
        const rateGate = rateCase(
          move.code,
          move.from.rate,
          move.to.rate,
          currentPoint(baseline.rates[id], options.date),
          id,
        );
        if (rateGate) cases.push(rateGate);
      }
    }

    const contradictions = await contradictedProse(options.dataDir, diffs);
    for (const c of contradictions) log(`prose to fix: ${c.where}: "${c.says}" but ${c.but}`);

    const refused = cases.filter((c) => !options.accept.has(c.id));
    const unknown = [...options.accept].filter((id) => !cases.some((c) => c.id === id));
    for (const id of unknown) log(`--accept ${id}: no such case in this run (ignored)`);
    if (refused.length > 0) {
      await writeFile(options.reviewFile, review(refused, diffs, options).split('\n').map(printable).join('\n'));
      log(
        `REFUSED by the plausibility gate: ${refused.length} case${refused.length === 1 ? '' : 's'} (review: ${options.reviewFile}). Nothing was written.`,
      );
      for (const c of refused) log(`  ${c.id}: ${c.why}`);
      log(`Accept them after checking with: --accept ${refused.map((c) => c.id).join(',')}`);
      return { exitCode: 2, outcomes, diffs, cases, contradictions };
    }
    // A provider that could not be reached holds back nobody: the others are released, and the run still exits 1.
    const unread = outcomes.filter((o) => o.status === 'unreadable');
    const done = (result: Omit<RefreshResult, 'outcomes' | 'diffs' | 'cases' | 'contradictions'>): RefreshResult => {
      if (unread.length > 0) {
        const retryable = unread.every((o) => o.retryable);
        log(
          `UNREADABLE: ${unread.map((o) => o.providerId).join(', ')} could not be read${retryable ? ' (retryable: run again later)' : ' (check the token and the endpoint)'}; ${result.released ? `the others were released in ${result.released}` : 'their served prices are kept'}`,
        );
      }
      return { ...result, exitCode: unread.length > 0 ? 1 : result.exitCode, outcomes, diffs, cases, contradictions };
    };
    const changed = diffs.some((d) => !isEmptyDiff(d)) || rates.changed;
    if (!changed) {
      log('no change: the catalogues read match the dataset; nothing written');
      return done({ exitCode: 0 });
    }
    if (!options.write) {
      log('dry run: run again with --write to release these changes');
      return done({ exitCode: 0 });
    }
    const nextBaseline = rolledBaseline(
      baseline,
      refreshed,
      ratesFile.rates,
      rates.changed ? rates.next.rates : {},
      options,
    );
    const released = await release(options, next, rates.changed ? rates.next : undefined, nextBaseline);
    if (!released) return done({ exitCode: 1 });
    log(`released ${released.version}: ${released.summary}`);
    return done({ exitCode: 0, released: released.version });
  } finally {
    await replay?.close();
  }
}

/** A provider whose refreshed record this run releases. */
interface Refreshed {
  before: ProviderRecord;
  after: ProviderRecord;
  managed: readonly string[];
}

/**
 * The baseline after this run's release: each released catalogue price and rate rolled on (see
 * `rolledPoint`), the plans a refreshed provider no longer sells dropped, the rest kept as they were.
 */
function rolledBaseline(
  baseline: GateBaseline,
  refreshed: readonly Refreshed[],
  servedRates: Record<string, number>,
  releasedRates: Record<string, number>,
  options: RefreshOptions,
): GateBaseline {
  const prices = { ...baseline.prices };
  for (const { before, after, managed } of refreshed) {
    for (const id of Object.keys(prices)) if (id.startsWith(`${after.id}:`)) delete prices[id];
    const keyOf = (p: { providerPlanId?: string; name: string }) => p.providerPlanId ?? p.name;
    for (const plan of after.plans.filter((p) => managed.includes(p.line))) {
      const id = `${after.id}:${keyOf(plan)}`;
      const served = before.plans.find((p) => managed.includes(p.line) && keyOf(p) === keyOf(plan));
      prices[id] = rolledPoint(baseline.prices[id], options.date, served?.price, plan.price, options.accept.has(id));
    }
  }
  const rates = { ...baseline.rates };
  for (const [code, rate] of Object.entries(releasedRates)) {
    if (code === 'EUR') continue;
    const id = `${ECB_ID}:${code}`;
    rates[id] = rolledPoint(baseline.rates[id], options.date, servedRates[code], rate, options.accept.has(id));
  }
  return { prices, rates };
}

/**
 * The dataset's rates after this run's readings: the ECB's daily document (a whole day, which must carry
 * every currency the dataset converts), and, when replaying, the partial readings recorded beside it
 * (dated copies of some of the ECB's rates). Each currency moves only to a newer day (see
 * `applyRateReadings`); unchanged when nothing newer was read.
 */
async function readRates(replay: ReplayServer | undefined, options: RefreshOptions, current: ExchangeRatesRecord) {
  const readings: RateReading[] = [];
  if (!replay || replay.recordingOf(ECB_ID)) {
    try {
      const ecb = await readEcbRates(
        new CatalogueClient(replay ? replay.baseUrlOf(ECB_ID) : ECB_BASE_URL, options.client),
      );
      const missing = Object.keys(current.rates).filter((code) => ecb.rates[code] === undefined);
      if (missing.length > 0)
        options.log(`${ECB_ID}: FAILED: the reference rates lack ${missing.join(', ')}; the dataset's rates are kept`);
      else {
        options.log(`${ECB_ID}: ${Object.keys(ecb.rates).length} reference rates of ${ecb.date} read`);
        readings.push({ date: ecb.date, rates: ecb.rates, whole: true });
      }
    } catch (error) {
      options.log(`${ECB_ID}: FAILED: ${(error as Error).message}; the dataset's rates are kept`);
    }
  }
  if (options.from) {
    try {
      for (const reading of await readPartialReadings(join(options.from, ECB_ID))) {
        options.log(
          `${ECB_ID}: a copy of the ${Object.keys(reading.rates).join(', ')} rate of ${reading.date} read (${reading.source!.url}); it can date only the currencies it carries`,
        );
        readings.push(reading);
      }
    } catch (error) {
      options.log(`${ECB_ID}: FAILED: the recorded partial readings: ${(error as Error).message}`);
    }
  }
  const { next, moves } = applyRateReadings(current, readings);
  for (const reading of readings.filter((r) => !moves.some((m) => m.to.date === r.date && m.whole === r.whole)))
    options.log(
      `${ECB_ID}: the rates of ${reading.date} are not newer than the dataset's (${current.date} and later); the dataset's are kept`,
    );
  return { changed: moves.length > 0, next, moves };
}

function summary(d: ProviderDiff): string {
  const parts: [number, string][] = [
    [d.added.length, 'added'],
    [d.removed.length, 'removed'],
    [d.repriced.length, 'repriced'],
    [d.specsChanged.length, 'specs changed'],
    [d.citiesChanged.length, 'lines with other locations'],
    [d.observedChanged.length, 'lines with newer prices'],
    [
      d.availabilityChanged.length,
      d.availabilityChanged.length === 1
        ? 'plan with a new availability reading'
        : 'plans with a new availability reading',
    ],
  ];
  return (
    parts
      .filter(([n]) => n > 0)
      .map(([n, what]) => `${n} ${what}`)
      .join(', ') + (d.currencyChanged ? ', currency changed' : '')
  );
}

/** The provider's sources list names the catalogue copy the refresh read, once. */
function withSources(record: ProviderRecord, source: ProviderRecord['sources'][number]): ProviderRecord {
  if (record.sources.some((s) => s.url === source.url)) return record;
  return {
    ...record,
    sources: [
      ...record.sources,
      { url: source.url, retrievedAt: source.retrievedAt, ...(source.copyOf ? { copyOf: source.copyOf } : {}) },
    ],
  };
}

function review(refused: GateCase[], diffs: ProviderDiff[], options: RefreshOptions): string {
  const lines = [
    `# Price refresh refused on ${options.date}`,
    '',
    "The plausibility gate stopped this run; nothing was written. Check each case against the provider's own",
    'price page, then run again with `--accept` and the ids you confirmed.',
    '',
    '| case | why |',
    '|---|---|',
    ...refused.map((c) => `| \`${c.id}\` | ${c.why.replace(/\|/g, '\\|')} |`),
    '',
    '## Everything this run would change',
    '',
    ...diffs
      .filter((d) => !isEmptyDiff(d))
      .flatMap((d) => [`### ${d.providerId}`, '', '```', ...describeDiff(d), '```', '']),
    `Accept with: \`npm run data:refresh -- --accept ${refused.map((c) => c.id).join(',')}${options.from ? ` --from ${options.from}` : ''}\``,
    '',
  ];
  return lines.join('\n');
}

/**
 * Writes the release in a copy of the dataset first: the new plans and rates, the version and
 * lastUpdated of the day, the generated guides regenerated from the new figures, then the release
 * (which validates everything). Only when all of that succeeds are the files copied back.
 */
async function release(
  options: RefreshOptions,
  providers: unknown,
  rates: unknown,
  baseline: GateBaseline,
): Promise<{ version: string; summary: string } | undefined> {
  const stage = await mkdtemp(join(tmpdir(), 'vpsapi-refresh-'));
  try {
    await cp(options.dataDir, stage, { recursive: true });
    const meta = JSON.parse(await readFile(join(stage, 'meta.json'), 'utf8')) as Record<string, unknown>;
    if (typeof meta.version === 'string' && meta.version >= options.date) {
      options.log(`Not released: the dataset is already at version ${meta.version}; pass a later --date`);
      return undefined;
    }
    await writeJson(join(stage, 'meta.json'), { ...meta, version: options.date, lastUpdated: options.date });
    await writeJson(join(stage, 'providers.json'), providers);
    if (rates) await writeJson(join(stage, 'exchange-rates.json'), rates);
    await writeJson(join(stage, GATE_BASELINE_FILE), baseline);
    // A dataset served from a ConfigMap holds the JSON files only: with no editorial inputs there are no guides to regenerate.
    const hasGuides = await stat(join(stage, 'editorial')).then(
      (s) => s.isDirectory(),
      () => false,
    );
    const generated = hasGuides ? await generateGuides(stage) : new Map<string, string>();
    if (!hasGuides)
      options.log('no editorial/ directory in the dataset: the generated guides are not regenerated here');
    for (const [name, content] of generated) await writeFile(join(stage, 'guides', name), content);
    const released = await releaseDataset(stage, { date: options.date });
    const copied = ['meta.json', 'providers.json', 'exchange-rates.json', GATE_BASELINE_FILE, CHANGELOG_FILE];
    for (const name of copied) await cp(join(stage, name), join(options.dataDir, name));
    for (const name of generated.keys()) await cp(join(stage, 'guides', name), join(options.dataDir, 'guides', name));
    await cp(releaseDir(stage, released.version), releaseDir(options.dataDir, released.version), { recursive: true });
    return released;
  } catch (error) {
    if (error instanceof InvalidDatasetError) {
      for (const problem of error.problems) options.log(`  ${problem}`);
      options.log(
        `Not released: the refreshed dataset has ${error.problems.length} problem${error.problems.length === 1 ? '' : 's'}; nothing was written`,
      );
      return undefined;
    }
    if (error instanceof ReleaseRefusedError) {
      options.log(`Not released: ${error.message}`);
      return undefined;
    }
    throw error;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

async function writeJson(path: string, value: unknown): Promise<void> {
  await writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
}
