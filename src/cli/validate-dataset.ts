/**
 * `npm run data:validate [dir]`: checks a dataset directory the way the service does at start and
 * prints one line per problem. Exit code 0 when valid, 1 when not.
 */
import 'reflect-metadata';
import { EMBEDDED_DATA_DIR } from '../config/app-config.js';
import { resolve } from 'node:path';
import { InvalidDatasetError, loadDataset } from '../dataset/dataset-loader.js';
import { checkedForRelease } from './orderable-picks.js';

const dir = process.argv[2] ? resolve(process.argv[2]) : EMBEDDED_DATA_DIR;
try {
  // A check: no tutorial may say a check read it after today.
  const snapshot = checkedForRelease(await loadDataset(dir, new Date().toISOString().slice(0, 10)), dir);
  console.log(
    `${dir}: valid dataset ${snapshot.version}: ${snapshot.providers.length} providers, ` +
      `${snapshot.useCases.length} use cases, ${snapshot.guides.length} guides, ${snapshot.authors.length} authors`,
  );
} catch (error) {
  if (!(error instanceof InvalidDatasetError)) throw error;
  console.error(error.problems.join('\n'));
  console.error(`${error.problems.length} problem${error.problems.length === 1 ? '' : 's'} in ${dir}`);
  process.exitCode = 1;
}
