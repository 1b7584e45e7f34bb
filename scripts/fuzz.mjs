// `npm run fuzz -- --runs N [--seed S]`: the property-based hostile-input suites with more cases than CI runs.
import { spawnSync } from 'node:child_process';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1];
};
const result = spawnSync('npx', ['jest', '--runInBand', 'test/hostile-'], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_RUNS: arg('runs', '20000'), FUZZ_SEED: arg('seed', String(Date.now() % 2 ** 31)) },
});
process.exit(result.status ?? 1);
