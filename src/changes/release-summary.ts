import type { DatasetRelease } from '../dataset/dto/changelog.dto.js';

/** What one release changed at one provider, as counts; repricings first, since they change a decision. */
export interface ProviderChangeCounts {
  providerId: string;
  plansRepriced: number;
  /** Repricings in the same currency with a higher new price. */
  pricesRaised: number;
  /** Repricings in the same currency with a lower new price. */
  pricesLowered: number;
  /** Repricings whose currency changed, so neither raised nor lowered can be said without a rate of the day. */
  currencyChanged: number;
  plansAdded: number;
  plansRemoved: number;
  providerFacts: number;
}

/** A release in a few lines: what changed, counted per provider, without the items themselves. */
export interface ReleaseSummary {
  version: string;
  date: string;
  summary: string;
  providersAdded: string[];
  providersRemoved: string[];
  /** Providers with any change; those with the most repricings first, then the most changes, then by id. */
  byProvider: ProviderChangeCounts[];
  guidesAdded: number;
  guidesUpdated: number;
}

/** Counts a release's changes per provider. */
export function summariseRelease(release: DatasetRelease): ReleaseSummary {
  const { changes } = release;
  const counts = new Map<string, ProviderChangeCounts>();
  const of = (providerId: string) => {
    let entry = counts.get(providerId);
    if (!entry) {
      entry = {
        providerId,
        plansRepriced: 0,
        pricesRaised: 0,
        pricesLowered: 0,
        currencyChanged: 0,
        plansAdded: 0,
        plansRemoved: 0,
        providerFacts: 0,
      };
      counts.set(providerId, entry);
    }
    return entry;
  };
  for (const r of changes.plansRepriced) {
    const entry = of(r.providerId);
    entry.plansRepriced += 1;
    if (r.oldCurrency !== r.currency) entry.currencyChanged += 1;
    else if (r.newPrice > r.oldPrice) entry.pricesRaised += 1;
    else if (r.newPrice < r.oldPrice) entry.pricesLowered += 1;
  }
  for (const p of changes.plansAdded) of(p.providerId).plansAdded += 1;
  for (const p of changes.plansRemoved) of(p.providerId).plansRemoved += 1;
  for (const f of changes.providerFacts) of(f.providerId).providerFacts += 1;
  const total = (c: ProviderChangeCounts) => c.plansRepriced + c.plansAdded + c.plansRemoved + c.providerFacts;
  const byProvider = [...counts.values()].sort(
    (a, b) => b.plansRepriced - a.plansRepriced || total(b) - total(a) || a.providerId.localeCompare(b.providerId),
  );
  return {
    version: release.version,
    date: release.date,
    summary: release.summary,
    providersAdded: changes.providersAdded,
    providersRemoved: changes.providersRemoved,
    byProvider,
    guidesAdded: changes.guidesAdded.length,
    guidesUpdated: changes.guidesUpdated.length,
  };
}
