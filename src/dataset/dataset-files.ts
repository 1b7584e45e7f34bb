import { readdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';

/** A guide file split into its front matter and markdown body, not yet validated. */
export interface RawGuide {
  /** Display path of the file, e.g. `data/guides/hetzner-review.md`. */
  file: string;
  /** File name without `.md`. */
  fileSlug: string;
  frontMatter: unknown;
  body: string;
}

/** The dataset's files as parsed JSON and YAML, not yet validated. */
export interface RawDataset {
  /** Display path of each JSON file, keyed by its role. */
  files: {
    meta: string;
    providers: string;
    useCases: string;
    authors: string;
    exchangeRates: string;
    vatRates: string;
    changelog: string;
  };
  meta: unknown;
  exchangeRates: unknown;
  vatRates: unknown;
  providers: unknown;
  useCases: unknown;
  authors: unknown;
  /** `changelog.json`, or undefined when the dataset has none (it has never been released). */
  changelog: unknown;
  guides: RawGuide[];
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

/** Names a file the way editors see it: relative to the working directory when inside it. */
export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/**
 * Reads every file of a dataset directory. Unreadable or unparsable files become problems
 * (one line each, naming the file) instead of exceptions, so an editor sees all of them at once.
 */
export async function readDatasetFiles(dir: string): Promise<{ raw: RawDataset; problems: string[] }> {
  const problems: string[] = [];
  const path = (name: string) => join(dir, name);
  const files = {
    meta: displayPath(path('meta.json')),
    providers: displayPath(path('providers.json')),
    useCases: displayPath(path('use-cases.json')),
    authors: displayPath(path('authors.json')),
    exchangeRates: displayPath(path('exchange-rates.json')),
    vatRates: displayPath(path('vat-rates.json')),
    changelog: displayPath(path('changelog.json')),
  };

  const readJson = async (name: string, shown: string): Promise<unknown> => {
    try {
      return JSON.parse(await readFile(path(name), 'utf8'));
    } catch (error) {
      problems.push(`${shown}: ${describeReadError(error)}`);
      return undefined;
    }
  };

  // The changelog is optional: a dataset that was never released (or a ConfigMap without it) has none.
  const readOptionalJson = async (name: string, shown: string): Promise<unknown> => {
    try {
      return JSON.parse(await readFile(path(name), 'utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      problems.push(`${shown}: ${describeReadError(error)}`);
      return undefined;
    }
  };

  const [meta, providers, useCases, authors, exchangeRates, vatRates, changelog, guides] = await Promise.all([
    readJson('meta.json', files.meta),
    readJson('providers.json', files.providers),
    readJson('use-cases.json', files.useCases),
    readJson('authors.json', files.authors),
    readJson('exchange-rates.json', files.exchangeRates),
    readJson('vat-rates.json', files.vatRates),
    readOptionalJson('changelog.json', files.changelog),
    readGuides(path('guides'), problems),
  ]);
  return { raw: { files, meta, providers, useCases, authors, exchangeRates, vatRates, changelog, guides }, problems };
}

async function readGuides(dir: string, problems: string[]): Promise<RawGuide[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.md')).sort();
  } catch (error) {
    // A dataset may come without guides (a ConfigMap holds flat files only); any other failure is a problem.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    problems.push(`${displayPath(dir)}: ${describeReadError(error)}`);
    return [];
  }
  const guides = await Promise.all(
    names.map(async (name): Promise<RawGuide | undefined> => {
      const file = displayPath(join(dir, name));
      let text: string;
      try {
        text = await readFile(join(dir, name), 'utf8');
      } catch (error) {
        problems.push(`${file}: ${describeReadError(error)}`);
        return undefined;
      }
      const match = FRONT_MATTER.exec(text);
      if (!match) {
        problems.push(`${file}: must start with a front matter block between two --- lines`);
        return undefined;
      }
      try {
        // The core schema keeps dates as strings, so the validator sees exactly what was written.
        const frontMatter: unknown = parseYaml(match[1], { schema: 'core' });
        return { file, fileSlug: name.slice(0, -'.md'.length), frontMatter, body: match[2] };
      } catch (error) {
        problems.push(`${file}: front matter is not valid YAML: ${firstLine(error)}`);
        return undefined;
      }
    }),
  );
  return guides.filter((g): g is RawGuide => g !== undefined);
}

function describeReadError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'is missing';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read (permission denied)';
  if (error instanceof SyntaxError) return `is not valid JSON: ${error.message}`;
  return `cannot be read: ${firstLine(error)}`;
}

function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split('\n')[0];
}
