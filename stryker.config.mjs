// `npm run test:mutation`: StrykerJS mutates the core modules and runs the unit specs against each
// mutant (the e2e suites boot servers and take minutes; a mutant here must be caught beside the code).
// One module at a time: `npm run test:mutation -- --mutate src/search/snippet.ts`. Scores: docs/testing.md.
import { unitProject } from './jest.config.js';

// MUTATION_SPECS (comma-separated spec paths) narrows the specs a run may use to kill mutants. The
// dataset validator's modules are measured against their own specs: every unit spec that imports a
// constant from the validator would otherwise run for each of its static mutants. Fewer specs can
// only lower a score, never raise it.
const specs = process.env.MUTATION_SPECS?.split(',').map((path) => `<rootDir>/${path.trim()}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'jest',
  // The jest config file has two projects; Stryker runs one flat config, the unit project's.
  jest: {
    projectType: 'custom',
    configFile: 'jest.config.js',
    // Plus the Redis counter's spec: a system suite (it starts redis-server), so mutation testing needs Redis too.
    config: { ...unitProject, testMatch: specs ?? [...unitProject.testMatch, '<rootDir>/test/redis-counter-storage.e2e-spec.ts'], projects: undefined, globalSetup: undefined, displayName: undefined },
    enableFindRelatedTests: true,
  },
  mutate: [
    'src/common/rate-limit/*.ts',
    '!src/common/rate-limit/*.spec.ts',
    'src/common/http/content-encoding.ts',
    'src/search/snippet.ts',
    'src/search/search-index.ts',
    'src/dataset/plan-figures.ts',
    'src/plans/plan-rows.ts',
    'src/common/http/admission.ts',
    'src/mcp/mcp-transport-rules.ts',
    'src/mcp/mcp-era.ts',
    'src/dataset/dataset-validator.ts',
    'src/dataset/provider-rules.ts',
    'src/dataset/use-case-rules.ts',
    'src/dataset/plan-pricing.ts',
    'src/dataset/add-on-rules.ts',
  ],
  coverageAnalysis: 'perTest',
  // Two cores, shared with other work.
  concurrency: 2,
  thresholds: { high: 90, low: 80, break: 80 },
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  ignorePatterns: ['dist', 'coverage', 'reports', 'test-results', 'tools'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
