import { InvalidArgumentError } from '../common/errors/domain-errors.js';

/**
 * Refuses a plan named together with figures to choose one by: a named plan has its own figures, so
 * the figures could only be ignored (a 4 GB plan priced for a "16 GB" question). One rule for every
 * tool that takes either: the error names the arguments that conflict and what to do instead.
 */
export function refusePlanWithFigures(query: object, figures: readonly string[]): void {
  const named = (['providerId', 'planName'] as const).filter(
    (k) => (query as Record<string, unknown>)[k] !== undefined,
  );
  const given = figures.filter((k) => (query as Record<string, unknown>)[k] !== undefined);
  if (named.length === 0 || given.length === 0) return;
  throw new InvalidArgumentError(
    given[0],
    `${given.join(', ')} cannot be used with ${named.join(' and ')}: a named plan has its own figures, so they would be ignored. ` +
      `Pass either the plan (providerId and planName) or the figures (${figures.join(', ')}).`,
  );
}
