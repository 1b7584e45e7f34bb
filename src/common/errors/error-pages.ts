import type { HttpProblem } from './http-problem.js';

/** A rendered error page. */
export interface ErrorPageBody {
  body: Buffer;
  contentType: string;
  headers?: readonly (readonly [string, string])[];
}

/**
 * Pages for errors outside the API, provided by the site's feature module under ERROR_PAGES, so that
 * the error filter (here, on the ground floor) does not depend on the pages it shows.
 */
export interface ErrorPages {
  /** The page for `problem` (404: the not-found page), in the form the client asked for. */
  pageFor(problem: HttpProblem, form: 'html' | 'markdown'): ErrorPageBody;
}

export const ERROR_PAGES = Symbol('ERROR_PAGES');
