// Jest runs in CommonJS mode; @swc/jest compiles our TypeScript and the ESM-only packages below.
const esmOnly = ['@nestjs', '@redocly', 'feed'];

const common = {
  testEnvironment: 'node',
  setupFiles: ['reflect-metadata'],
  transform: {
    '^.+\\.(t|j|mj)s$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
};

/**
 * Suites that start other processes or services (several replicas, Redis, nginx, Chromium, the built
 * service, the tutorials' sshd/nginx/ansible, kubectl and a stand-in Kubernetes API, the MCP Inspector
 * and the OpenAPI tools' CLIs: openapi-typescript with tsc, Spectral, Redocly) or run for a minute.
 * Only these need programs beyond Node and `npm ci`; their project's global setup provides them
 * (test/system-setup.cjs), so `npm test` (unit and e2e) runs as any user on Linux or macOS.
 */
const SYSTEM = [
  'redis-counter-storage',
  'reload-full-disk',
  'reload-memory',
  'cluster',
  'soak',
  'browser',
  'phone-layout',
  'rate-limit-redis',
  'shutdown',
  'bench-smoke',
  'mcp-inspector',
  'log-buffer',
  'startup',
  'tutorial-configs',
  'tutorial-steps',
  'deploy',
  'typed-client',
  'openapi-lint',
].map((name) => `<rootDir>/test/${name}.e2e-spec.ts`);

/** The unit specs beside the code: no app, seconds (npm run test:unit); also what mutation testing runs (stryker.config.mjs). */
export const unitProject = { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] };

export default {
  // Most suites boot the real app (or the built service) on the full dataset, which takes several seconds
  // on this 2-core machine, twice that with two suites in parallel and more under a loaded CI run: far
  // beyond jest's 5 s default for a test or hook. Speed is measured by the benchmark, never by a test's
  // timeout. (A global option: projects ignore it.)
  // TEST_TIME_SCALE (test/support/time.ts) multiplies it for a slower machine.
  testTimeout: 60_000 * Math.max(1, Number(process.env.TEST_TIME_SCALE) || 1),
  projects: [
    unitProject,
    // The real app over real HTTP in this process (npm run test:e2e). Suites are parallel-safe: each
    // starts its own app, Redis and child processes on free loopback ports and writes only to its own
    // temporary directories (npm test runs them in two workers).
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: SYSTEM.map((p) => p.replace('<rootDir>', '')),
    },
    // The system suites (npm run test:system, in band: they start processes and measure).
    // Its global setup installs the Debian packages these suites need, or says what is missing and how to get it.
    { ...common, displayName: 'system', testMatch: SYSTEM, globalSetup: '<rootDir>/test/system-setup.cjs' },
  ],
};
