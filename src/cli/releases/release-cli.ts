/**
 * `npm run data:release [-- dir] [--date YYYY-MM-DD]`: validates the dataset, compares it with the last
 * released snapshot, keeps a snapshot under `releases/<version>/` and appends the release to
 * `changelog.json`. Exit code 0 when released, 1 when refused.
 */
import 'reflect-metadata';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EMBEDDED_DATA_DIR } from '../../config/app-config.js';
import { InvalidDatasetError } from '../../dataset/dataset-loader.js';
import { releaseDataset, ReleaseRefusedError } from './release-dataset.js';

const { values, positionals } = parseArgs({ options: { date: { type: 'string' } }, allowPositionals: true });
const dir = positionals[0] ? resolve(positionals[0]) : EMBEDDED_DATA_DIR;
try {
  const release = await releaseDataset(dir, { date: values.date });
  console.log(`${dir}: released ${release.version} (${release.date}): ${release.summary}`);
} catch (error) {
  if (error instanceof InvalidDatasetError) {
    console.error(error.problems.join('\n'));
    console.error(`Not released: ${error.problems.length} problem${error.problems.length === 1 ? '' : 's'} in ${dir}`);
  } else if (error instanceof ReleaseRefusedError) {
    console.error(`Not released: ${error.message}`);
  } else {
    throw error;
  }
  process.exitCode = 1;
}
