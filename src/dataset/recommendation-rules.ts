import { REGION_NAMES, REGIONS, type ProviderRecord } from './dto/provider.dto.js';
import { pricedPlans } from './plan-pricing.js';

/** A provider's `support` text that records the channels and hours as not confirmed. */
export const supportUnknown = (p: Pick<ProviderRecord, 'support'>) => /^unknown\b/i.test(p.support.trim());

/** `best<Region>` scenario keys, e.g. `bestEurope`, `bestNorthAmerica`, to the region they name. */
const REGION_KEYS = new Map(REGIONS.map((r) => [`best${REGION_NAMES[r].replace(/\s+/g, '')}`, r]));

/**
 * Every provider-list recommendation must be something a reader can act on, as the data shows it:
 * the provider still sells some plan; a `best<Region>` pick has a data centre in that region; the
 * `bestSupport` pick has support the data describes (not "unknown").
 */
export function checkRecommendations(
  recommendations: Record<string, string>,
  providers: readonly ProviderRecord[],
  version: string,
  file: string,
): string[] {
  const problems: string[] = [];
  for (const [key, id] of Object.entries(recommendations)) {
    const p = providers.find((x) => x.id === id);
    if (!p) continue; // reported as naming no provider
    const at = `${file}: recommendations.${key} (${id})`;
    if (!pricedPlans(p, version).some((plan) => !plan.discontinued))
      problems.push(`${at}: the provider sells none of its listed plans any more, so it cannot be recommended`);
    const region = REGION_KEYS.get(key);
    if (region && !p.datacenters.some((d) => d.region === region))
      problems.push(`${at}: the provider has no data centre in ${REGION_NAMES[region]}`);
    if (key === 'bestSupport' && supportUnknown(p)) {
      problems.push(
        `${at}: the provider's support is unknown in the data ("${p.support.slice(0, 60)}"), so it cannot be named best for support`,
      );
    }
  }
  return problems;
}
