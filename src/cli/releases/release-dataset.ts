import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadDataset } from '../../dataset/dataset-loader.js';
import { checkedForRelease } from '../orderable-picks.js';
import type { DatasetSnapshot } from '../../dataset/dataset-snapshot.js';
import type { DatasetRelease } from '../../dataset/dto/changelog.dto.js';
import { isCalendarDate } from '../../dataset/dto/validators.js';
import { diffReleases, releaseSummary, type ReleaseContent } from './release-diff.js';

/** The dataset's JSON files, copied into each release snapshot. */
export const RELEASED_FILES = [
  'meta.json',
  'providers.json',
  'use-cases.json',
  'authors.json',
  'exchange-rates.json',
] as const;
/** The guide index a snapshot keeps instead of the guides themselves: slug, title and dates. */
export const RELEASED_GUIDE_INDEX = 'guides.json';
export const CHANGELOG_FILE = 'changelog.json';

/** Where the snapshot of a released version is kept. */
export const releaseDir = (dataDir: string, version: string) => join(dataDir, 'releases', version);

/** A release that must not be made; the message says why and what to do. */
export class ReleaseRefusedError extends Error {
  override name = 'ReleaseRefusedError';
}

/**
 * Releases the dataset in `dataDir`: validates it (an invalid dataset throws InvalidDatasetError),
 * compares it with the last released snapshot, keeps a snapshot of it under `releases/<version>/`
 * and appends the release to `changelog.json`. The version in meta.json must be later than the last
 * release's. Returns the new changelog entry.
 */
export async function releaseDataset(dataDir: string, options: { date?: string } = {}): Promise<DatasetRelease> {
  const date = options.date ?? new Date().toISOString().slice(0, 10);
  if (!isCalendarDate(date))
    throw new ReleaseRefusedError(`--date must be a real date written YYYY-MM-DD (got "${date}")`);
  const snapshot = checkedForRelease(await loadDataset(dataDir), dataDir);
  const last = snapshot.changelog.at(-1);
  if (last && snapshot.version <= last.version) {
    throw new ReleaseRefusedError(
      `meta.json version ${snapshot.version} is already released (last release ${last.version}): set a later version before releasing.`,
    );
  }
  const previous = last ? await readReleasedContent(releaseDir(dataDir, last.version)) : null;
  const changes = diffReleases(previous, releaseContentOf(snapshot));
  const release: DatasetRelease = {
    version: snapshot.version,
    date,
    summary: releaseSummary(changes, previous === null),
    changes,
  };

  // The snapshot first, then the changelog that points to it: an interrupted release leaves no entry without its snapshot.
  const target = releaseDir(dataDir, snapshot.version);
  await mkdir(target, { recursive: true });
  for (const name of RELEASED_FILES) await copyFile(join(dataDir, name), join(target, name));
  await writeFile(join(target, RELEASED_GUIDE_INDEX), `${JSON.stringify({ guides: guideIndex(snapshot) }, null, 2)}\n`);
  await writeFile(
    join(dataDir, CHANGELOG_FILE),
    `${JSON.stringify({ releases: [...snapshot.changelog, release] }, null, 2)}\n`,
  );
  return release;
}

function guideIndex(snapshot: DatasetSnapshot): ReleaseContent['guides'] {
  return [...snapshot.guides]
    .sort((a, b) => a.slug.localeCompare(b.slug))
    .map((g) => ({
      slug: g.slug,
      title: g.title,
      published: g.published,
      ...(g.updated ? { updated: g.updated } : {}),
    }));
}

function releaseContentOf(snapshot: DatasetSnapshot): ReleaseContent {
  return { providers: snapshot.providers as unknown as ReleaseContent['providers'], guides: guideIndex(snapshot) };
}

/** The providers and guide index of a released snapshot. */
async function readReleasedContent(dir: string): Promise<ReleaseContent> {
  const read = async (name: string) => {
    try {
      return JSON.parse(await readFile(join(dir, name), 'utf8'));
    } catch (error) {
      throw new ReleaseRefusedError(
        `The last release's snapshot cannot be read (${join(dir, name)}: ${(error as Error).message.split('\n')[0]}); restore it from version control.`,
      );
    }
  };
  const [providers, guides] = await Promise.all([read('providers.json'), read(RELEASED_GUIDE_INDEX)]);
  return { providers: providers.providers, guides: guides.guides };
}
