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
 */
const SYSTEM = ['cluster', 'soak', 'browser', 'phone-layout', 'rate-limit-redis', 'shutdown', 'bench-smoke', 'mcp-inspector', 'log-buffer', 'startup', 'tutorial-configs', 'tutorial-steps', 'deploy', 'typed-client', 'openapi-lint'].map((name) => `<rootDir>/test/${name}.e2e-spec.ts`);

/**
 * Suites run a second time with the front door (the replay cache in front of Express) switched off:
 * the contract, the rate limit, the pages and the MCP endpoint must hold without it. (The suites of the
 * door itself, fast-paths, refusals and mcp-door, test what it replays; door-modes compares the modes.
 * hostile-mcp runs once: the door replays only answers the controller recorded and passes everything
 * else, so its generated messages reach the controller in either mode.)
 */
const DOOR_OFF = ['contract', 'rate-limit', 'pages', 'http-behaviour', 'mcp-protocol', 'mcp-tools', 'mcp-answer-cache'].map((name) => `<rootDir>/test/${name}.e2e-spec.ts`);

/** The unit specs beside the code: no app, seconds (npm run test:unit); also what mutation testing runs (stryker.config.mjs). */
export const unitProject = { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] };

export default {
  globalSetup: '<rootDir>/test/global-setup.cjs',
  // Most suites boot the real app (or the built service) on the full dataset, which takes several seconds
  // on this 2-core machine, twice that with two suites in parallel and more under a loaded CI run: far
  // beyond jest's 5 s default for a test or hook. Speed is measured by the benchmark, never by a test's
  // timeout. (A global option: projects ignore it.)
  testTimeout: 60_000,
  projects: [
    unitProject,
    // The real app over real HTTP in this process (npm run test:e2e). Suites are parallel-safe: each
    // starts its own app, Redis and child processes on free loopback ports and writes only to its own
    // temporary directories (npm test runs them in two workers).
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'], testPathIgnorePatterns: SYSTEM.map((p) => p.replace('<rootDir>', '')) },
    // Some e2e suites again, with FRONT_DOOR=off in the environment startTestApp reads (npm run test:door-off; CI runs it).
    { ...common, displayName: 'e2e-door-off', setupFiles: [...common.setupFiles, '<rootDir>/test/support/door-off.cjs'], testMatch: DOOR_OFF },
    // The system suites (npm run test:system, in band: they start processes and measure).
    { ...common, displayName: 'system', testMatch: SYSTEM },
  ],
};
