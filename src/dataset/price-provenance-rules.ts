/**
 * The rules that keep every price's age honest: each plan says when the provider showed its price,
 * each line's source says how it was read, a copy names what it copies, a reported later price change
 * or a discontinuation is dated and sourced, and the provider's headline entry price is a plan still sold.
 */
import type { ProviderRecord } from './dto/provider.dto.js';
import { mayBeOrdered } from './plan-pricing.js';

export function checkPriceProvenance(p: ProviderRecord, at: string, version: string): string[] {
  const problems: string[] = [];
  p.planLines.forEach((line, i) => {
    const where = `${at}.planLines[${i}]`;
    const { source } = line;
    if (source.method === undefined)
      problems.push(
        `${where}.source.method: say how the line's prices were read (provider-api, provider-page, copy or editorial)`,
      );
    if (source.method === 'copy' && !source.copyOf)
      problems.push(`${where}.source.copyOf: a copy must name the provider's page or endpoint it copies`);
    if (source.copyOf && source.method !== 'copy')
      problems.push(`${where}.source.method: a source with copyOf is a copy (method "copy")`);
    if (line.laterPriceChange) {
      if (line.laterPriceChange.date > version)
        problems.push(`${where}.laterPriceChange.date: must not be after the dataset version (${version})`);
      if (line.laterPriceChange.source.retrievedAt > version)
        problems.push(
          `${where}.laterPriceChange.source.retrievedAt: must not be after the dataset version (${version})`,
        );
    }
    if (line.discontinued) {
      if (line.discontinued.since !== null && line.discontinued.since > version)
        problems.push(
          `${where}.discontinued.since: must not be after the dataset version (${version}); a line still sold is not discontinued yet`,
        );
      if (line.discontinued.source.retrievedAt > version)
        problems.push(`${where}.discontinued.source.retrievedAt: must not be after the dataset version (${version})`);
    }
  });
  const lines = new Map(p.planLines.map((l) => [l.id, l]));
  p.plans.forEach((plan, j) => {
    const where = `${at}.plans[${j}] (${plan.name}).observedAt`;
    const line = lines.get(plan.line);
    if (plan.observedAt > version)
      problems.push(
        `${where}: must not be after the dataset version (${version}): a release cannot quote a price seen after it`,
      );
    if (line && plan.observedAt > line.source.retrievedAt)
      problems.push(`${where}: must not be after the day its line's source was read (${line.source.retrievedAt})`);
    const seen = plan.availability;
    if (seen && seen.observedAt > version)
      problems.push(
        `${at}.plans[${j}] (${plan.name}).availability.observedAt: must not be after the dataset version (${version})`,
      );
    if (seen && seen.observedAt > seen.source.retrievedAt)
      problems.push(
        `${at}.plans[${j}] (${plan.name}).availability.observedAt: must not be after the day its source was read (${seen.source.retrievedAt})`,
      );
  });
  const current = p.plans.filter((plan) => !lines.get(plan.line)?.discontinued && mayBeOrdered(plan));
  if (current.length === 0)
    problems.push(
      `${at}.plans: every plan is in a discontinued line or cannot be ordered; the provider must list at least one plan it still sells`,
    );
  else {
    const cheapest = Math.min(...current.map((plan) => plan.price));
    if (p.startingPrice !== cheapest)
      problems.push(
        `${at}.startingPrice: must equal the cheapest price of a plan that can be ordered (${cheapest}); a discontinued or unorderable plan is never the starting price`,
      );
  }
  return problems;
}
