import { readDatasetFiles } from './dataset-files.js';
import { DatasetSnapshot } from './dataset-snapshot.js';
import { validateDataset } from './dataset-validator.js';

/** The dataset directory holds invalid data; `problems` has one line per problem. */
export class InvalidDatasetError extends Error {
  constructor(
    readonly dir: string,
    readonly problems: string[],
  ) {
    super(
      `The dataset in ${dir} is invalid (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.join('\n')}`,
    );
    this.name = 'InvalidDatasetError';
  }
}

/**
 * Reads and validates a dataset directory; the result is a snapshot or an InvalidDatasetError. `today`
 * (UTC, YYYY-MM-DD) is the day of a check that reads it (validateDataset).
 */
export async function loadDataset(dir: string, today?: string): Promise<DatasetSnapshot> {
  const { raw, problems: readProblems } = await readDatasetFiles(dir);
  const { content, problems } = validateDataset(raw, today);
  const all = [...readProblems, ...problems];
  if (all.length > 0 || !content) throw new InvalidDatasetError(dir, all);
  return new DatasetSnapshot(content, dir);
}
