/**
 * Recorded catalogue answers: real answers of a provider's API, kept with where they were copied from
 * and when the provider showed them, so that `refresh --from <dir>` and the tests replay them through
 * the adapters' own HTTP code. Layout, one folder per provider:
 *
 *   <dir>/<provider>/recording.json   which request gets which file, and the provenance
 *   <dir>/<provider>/README.md        the same provenance for a person: repository, path, commit, date
 *   <dir>/<provider>/<answer files>   the bodies, as recorded
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isCalendarDate } from '../../dataset/dto/validators.js';

/** Where a recorded answer was read. */
export interface RecordedSource {
  /** The public copy that holds the answer (a repository file at a fixed commit). */
  url: string;
  /** The provider's own endpoint the copy is an answer of. */
  copyOf: string;
}

export interface RecordedAnswer {
  /** Path on the provider's API host, e.g. `/v1/pricing`. */
  path: string;
  /** Query parameters the request must carry (others are ignored); absent matches any query. */
  query?: Record<string, string>;
  /** Body file, relative to the provider's folder. */
  file: string;
  /** HTTP status of the answer; 200 when absent. */
  status?: number;
  /** The date the provider showed this answer, when it differs from the recording's. */
  observedAt?: string;
  /** Where this answer was copied from, when it differs from the recording's. */
  source?: RecordedSource;
  /** False for an answer that holds no plan price (locations, transfer prices): its date does not age the plans. */
  planPrices?: boolean;
  /**
   * The date the answer's availability fields (which sizes can be ordered, and where) were shown, when
   * older than `observedAt`: an answer rebuilt from two copies takes them from the older one.
   */
  availabilityObservedAt?: string;
  /** Where those availability fields were copied from, with `availabilityObservedAt`. */
  availabilitySource?: RecordedSource;
}

export interface Recording {
  provider: string;
  /** The date the provider showed the answers (the copy's content date: a commit date, a capture date). */
  observedAt: string;
  /** The day we read the copy. */
  retrievedAt: string;
  source: RecordedSource;
  answers: RecordedAnswer[];
  /** What the copy leaves out of the lines it covers, when it is not the whole answer: the lines it writes are then marked incomplete, with this as `notListed`. */
  partial?: string;
}

export const RECORDING_FILE = 'recording.json';

/** Reads and checks `<dir>/<provider>/recording.json`; null when the provider has no recording there. */
export async function readRecording(dir: string, provider: string): Promise<Recording | null> {
  let text: string;
  try {
    text = await readFile(join(dir, provider, RECORDING_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const recording = JSON.parse(text) as Recording;
  const where = `${join(dir, provider, RECORDING_FILE)}`;
  const problems: string[] = [];
  if (recording.provider !== provider) problems.push(`provider must be "${provider}"`);
  if (!isCalendarDate(recording.observedAt)) problems.push('observedAt must be a date, YYYY-MM-DD');
  if (!isCalendarDate(recording.retrievedAt)) problems.push('retrievedAt must be a date, YYYY-MM-DD');
  if (recording.observedAt > recording.retrievedAt) problems.push('observedAt must not be after retrievedAt');
  if (!recording.source?.url || !recording.source?.copyOf) problems.push('source needs url and copyOf');
  if (!Array.isArray(recording.answers) || recording.answers.length === 0)
    problems.push('answers must list at least one answer');
  for (const [i, answer] of (recording.answers ?? []).entries()) {
    if (!answer.path?.startsWith('/') || !answer.file)
      problems.push(`answers[${i}] needs a path starting with / and a file`);
    if (
      answer.observedAt !== undefined &&
      (!isCalendarDate(answer.observedAt) || answer.observedAt > recording.retrievedAt)
    )
      problems.push(`answers[${i}].observedAt must be a date not after retrievedAt`);
    if (
      answer.availabilityObservedAt !== undefined &&
      (!isCalendarDate(answer.availabilityObservedAt) ||
        answer.availabilityObservedAt > (answer.observedAt ?? recording.observedAt) ||
        !answer.availabilitySource?.url)
    )
      problems.push(
        `answers[${i}].availabilityObservedAt must be a date not after the answer's observedAt, with an availabilitySource`,
      );
  }
  if (problems.length > 0) throw new Error(`${where}: ${problems.join('; ')}`);
  return recording;
}

/** The providers that have a recording in `dir`. */
export async function recordedProviders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const found: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory() && (await readRecording(dir, entry.name)) !== null) found.push(entry.name);
  }
  return found.sort();
}

/** The answer a request gets: same path, every recorded query parameter present with its value; the most specific wins. */
export function matchAnswer(recording: Recording, path: string, query: URLSearchParams): RecordedAnswer | undefined {
  const candidates = recording.answers.filter(
    (a) => a.path === path && Object.entries(a.query ?? {}).every(([k, v]) => query.get(k) === v),
  );
  return candidates.sort((a, b) => Object.keys(b.query ?? {}).length - Object.keys(a.query ?? {}).length)[0];
}
