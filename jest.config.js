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

/** Suites that start other processes or services (several replicas, Redis, nginx, Chromium) or run for a minute. */
const SYSTEM = ['cluster', 'soak', 'browser', 'phone-layout', 'rate-limit-redis', 'shutdown', 'bench-smoke', 'mcp-inspector', 'log-buffer'].map((name) => `<rootDir>/test/${name}.e2e-spec.ts`);

/** The unit specs beside the code: no app, seconds (npm run test:unit); also what mutation testing runs (stryker.config.mjs). */
export const unitProject = { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] };

export default {
  globalSetup: '<rootDir>/test/global-setup.cjs',
  // Most suites boot the real app (or the built service) on the full dataset, which takes several seconds
  // on this 2-core machine and more under a loaded CI run: beyond jest's 5 s default for a test or hook.
  // Speed is measured by the benchmark, never by a test's timeout. (A global option: projects ignore it.)
  testTimeout: 30_000,
  projects: [
    unitProject,
    // The real app over real HTTP in this process (npm run test:e2e).
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'], testPathIgnorePatterns: SYSTEM.map((p) => p.replace('<rootDir>', '')) },
    // The system suites (npm run test:system); npm test runs all three projects.
    { ...common, displayName: 'system', testMatch: SYSTEM },
  ],
};
