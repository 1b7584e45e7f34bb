/** One operation of the public JSON API. */
export interface ApiOperation {
  operationId: string;
  /** Path template as in OpenAPI, e.g. `/api/providers/{providerId}.json`. */
  path: string;
  summary: string;
  description: string;
}

/**
 * Every operation of the JSON API: the single list that routes, the OpenAPI document and the index are
 * built from. The contract's five come first; the rest are additive.
 */
export const API_OPERATIONS = {
  getApiIndex: {
    operationId: 'getApiIndex',
    path: '/api/index.json',
    summary: 'Describe the API',
    description:
      'Entry point: what the API serves, every endpoint with its absolute URL template, the rate limit and where the documentation is.',
  },
  listProviders: {
    operationId: 'listProviders',
    path: '/api/providers.json',
    summary: 'List every reviewed provider',
    description:
      'The eight reviewed VPS providers with ratings, entry prices, locations and the full plan matrix, plus the editorial recommendations.',
  },
  getProvider: {
    operationId: 'getProvider',
    path: '/api/providers/{providerId}.json',
    summary: 'Get one provider',
    description: 'One provider by its stable id; the record is identical to its entry in the list.',
  },
  listGuides: {
    operationId: 'listGuides',
    path: '/api/guides.json',
    summary: 'List every guide',
    description:
      'The guide index, newest first: reviews, comparisons, workload guides and tutorials, each with the URL of its page and of its raw markdown.',
  },
  listUseCases: {
    operationId: 'listUseCases',
    path: '/api/use-cases.json',
    summary: 'List every workload use case',
    description:
      'Workloads with minimum and recommended server specs, a typical entry price and the providers we recommend for each.',
  },
  listPlans: {
    operationId: 'listPlans',
    path: '/api/plans.json',
    summary: 'List every plan as one flat table',
    description:
      'Every plan of every provider as a flat row: the published text fields, the figures parsed from them, how the price is paid, and the prices converted to USD and EUR at the dated exchange rates.',
  },
  downloadPlansCsv: {
    operationId: 'downloadPlansCsv',
    path: '/api/plans.csv',
    summary: 'Download every plan as CSV',
    description:
      'The rows of listPlans as RFC 4180 CSV (text/csv, a header row, empty fields for null), for spreadsheets and notebooks; saved as vpsapi-plans-<version>.csv.',
  },
  listDatasetChanges: {
    operationId: 'listDatasetChanges',
    path: '/api/changes.json',
    summary: 'List what changed in each dataset release',
    description:
      'Every release of the dataset, newest first: plans added, removed or repriced (old and new price), provider facts that changed, guides added or updated. Also an Atom feed at /changes.atom.',
  },
} as const satisfies Record<string, ApiOperation>;

/** The Express route of an OpenAPI path template: `{providerId}` becomes `:providerId`. */
export function expressRoute(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
