// Jest runs in CommonJS mode; @swc/jest compiles our TypeScript and the ESM-only packages below.
const esmOnly = ['@nestjs', '@redocly'];

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

/** The unit specs beside the code; also what mutation testing runs (stryker.config.mjs). */
export const unitProject = { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] };

export default {
  globalSetup: '<rootDir>/test/global-setup.cjs',
  projects: [unitProject, { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] }],
};
