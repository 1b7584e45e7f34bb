/**
 * `npm run data:refresh [-- --from <dir>] [--write] [--accept <ids>] [--date YYYY-MM-DD] [--data <dir>] [--review <file>]`
 *
 * Reads every provider catalogue it can (tokens from the environment: HCLOUD_TOKEN, DIGITALOCEAN_TOKEN,
 * UPCLOUD_USERNAME/UPCLOUD_PASSWORD, HOSTINGER_API_TOKEN; a provider without one is skipped), prints one
 * line per provider and the diff against the dataset, and gates implausible changes. Exit 0: released,
 * a dry run, or no change; 2: refused by the gate (nothing written, review file written, in the system's
 * temporary directory unless --review names one); 1: failed, or a provider could not be read (the others released).
 */
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EMBEDDED_DATA_DIR } from '../../../config/app-config.js';
import { catalogueCredentials } from '../../../config/catalogue-credentials.js';
import { isCalendarDate } from '../../../dataset/dto/validators.js';
import { catalogueAdapters } from '../catalogue-registry.js';
import { REVIEW_FILE, runRefresh } from './refresh.js';

const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    write: { type: 'boolean', default: false },
    accept: { type: 'string', multiple: true, default: [] },
    date: { type: 'string' },
    data: { type: 'string' },
    // Outside the work tree by default: a review is the run's output, never a file to commit.
    review: { type: 'string', default: join(tmpdir(), REVIEW_FILE) },
  },
});
const date = values.date ?? new Date().toISOString().slice(0, 10);
if (!isCalendarDate(date)) {
  console.error(`--date must be a real date written YYYY-MM-DD (got "${date}")`);
  process.exit(1);
}
try {
  const result = await runRefresh({
    dataDir: values.data ? resolve(values.data) : EMBEDDED_DATA_DIR,
    adapters: catalogueAdapters(),
    from: values.from ? resolve(values.from) : undefined,
    write: values.write,
    accept: new Set(
      values.accept
        .flatMap((list) => list.split(','))
        .map((id) => id.trim())
        .filter(Boolean),
    ),
    date,
    reviewFile: resolve(values.review),
    env: catalogueCredentials(),
    log: (line) => console.log(line),
  });
  process.exitCode = result.exitCode;
} catch (error) {
  console.error(`data:refresh failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
