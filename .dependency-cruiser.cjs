// The layers of src/, lowest first. A module may import from its own layer and the layers below it,
// never from a layer above: the ground floor does not know the features built on it.
//
//   config, request   settings; the typed per-request context
//   observability     logs and metrics (pushed to by everything above)
//   dataset           loading, validating and indexing the data
//   common            HTTP plumbing: the pipeline, errors, rate limit, availability
//   features          api-index, providers, guides, use-cases, plans, changes, costs, filters, search, pages, mcp, openapi, docs, health, lifecycle
//   app               app.module, app.factory, request-pipeline, main
//   cli               the offline jobs beside the service (catalogue refresh, release, guide generator,
//                     dataset validation): they may use the layers above, and nothing of the served app imports them
const FEATURES = '^src/(api-index|providers|guides|use-cases|plans|changes|costs|filters|search|pages|mcp|openapi|docs|health|lifecycle)/';
// metadata.ts is the @nestjs/swagger plugin's generated model metadata, read only by openapi/.
const APP = '^src/(app\\.module|app\\.factory|request-pipeline|main)\\.ts$';

const upward = (name, from, to, comment) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to } });

module.exports = {
  forbidden: [
    upward('config-is-the-ground', '^src/config/', '^src/(?!config/)', 'config reads the environment and nothing else.'),
    upward('request-context-is-the-ground', '^src/request/', '^src/(?!request/)', 'The request context depends on nothing in the service.'),
    upward('observability-below-dataset', '^src/observability/', '^src/(dataset|common)/|' + FEATURES + '|' + APP, 'Metrics are pushed to, never pulled from the layers above.'),
    upward('dataset-below-common', '^src/dataset/', '^src/common/|' + FEATURES + '|' + APP, 'The data layer knows nothing of HTTP or features.'),
    upward('common-below-features', '^src/common/', FEATURES + '|' + APP, 'common/ is the ground floor of HTTP: features hand it what it needs through injection tokens.'),
    upward('features-below-app', FEATURES, APP, 'Features do not reach into the application wiring.'),
    upward('cli-apart-from-the-app', '^src/(?!cli/)', '^src/cli/', 'The offline jobs live beside the served app: nothing it loads imports them.'),
    {
      name: 'no-circular',
      comment: 'A cycle makes the layers meaningless and the load order fragile.',
      severity: 'error',
      from: { path: '^src/' },
      // metadata.ts loads the DTOs with dynamic import() only when the OpenAPI document is built.
      to: { circular: true, dependencyTypesNot: ['type-only'], viaOnly: { pathNot: '^src/metadata\\.ts$' } },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
