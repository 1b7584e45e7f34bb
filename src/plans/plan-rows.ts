import type { AppConfig } from '../config/app-config.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import { planFigures } from '../dataset/plan-figures.js';
import { pricedPlans } from '../dataset/plan-pricing.js';
import type { PlanTableRow } from './dto/plan-table-row.dto.js';
import { historyOf, priceHistories } from './price-history.js';

/** Currencies every row carries converted prices in, besides the one it is billed in. */
export const ROW_CURRENCIES = ['USD', 'EUR'] as const;

/**
 * Every plan of every provider as a flat row, in dataset order, with figures parsed and prices
 * converted once per snapshot. The one source of plan rows: plans.json, plans.csv, the plans page,
 * find_vps_plans and the use-case entry prices all read these.
 */
export function buildPlanRows(snapshot: DatasetSnapshot, config: Pick<AppConfig, 'url'>): PlanTableRow[] {
  const rates = snapshot.exchangeRates;
  const histories = priceHistories(snapshot.changelog);
  const convert = (amount: number | null, from: string, to: string) =>
    amount === null ? null : rates.convert(amount, from, to);
  return snapshot.providers.flatMap((provider) => {
    const lines = new Map(provider.planLines.map((line) => [line.id, line]));
    return pricedPlans(provider, snapshot.asOf).map((plan): PlanTableRow => {
      const figures = planFigures(plan);
      return {
        providerId: provider.id,
        providerName: provider.name,
        planName: plan.name,
        cpu: plan.cpu,
        ram: plan.ram,
        storage: plan.storage,
        bandwidth: plan.bandwidth,
        vcpus: figures.vcpus,
        ramGb: figures.ramGb,
        storageGb: figures.storageGb,
        storageType: figures.storageType as PlanTableRow['storageType'],
        bandwidthTb: figures.bandwidthTb,
        unmetered: figures.unmetered,
        cpuType: plan.cpuType,
        price: plan.price,
        currency: plan.currency,
        priceBasis: plan.priceBasis,
        termMonths: plan.termMonths,
        promotional: plan.promotional,
        renewalPrice: plan.renewalPrice,
        monthToMonthPrice: plan.monthToMonthPrice,
        priceUsd: rates.convert(plan.price, plan.currency, 'USD'),
        priceEur: rates.convert(plan.price, plan.currency, 'EUR'),
        monthToMonthPriceUsd: convert(plan.monthToMonthPrice, plan.currency, 'USD'),
        monthToMonthPriceEur: convert(plan.monthToMonthPrice, plan.currency, 'EUR'),
        exchangeRatesDate: rates.dateUsedBy(ROW_CURRENCIES.map((to) => [plan.currency, to] as const)),
        lineId: plan.line,
        lineComplete: lines.get(plan.line)!.complete,
        reviewUrl: config.url(provider.url),
        priceHistory: [...historyOf(histories, provider.id, plan)],
        observedAt: plan.observedAt,
        priceAgeDays: plan.priceAgeDays,
        stale: plan.stale,
        staleReason: plan.staleReason,
        // The validator refuses a plan line whose source does not say how it was read.
        priceSourceMethod: plan.source.method!,
        priceSourceUrl: plan.source.url,
        priceCopyOf: plan.source.copyOf ?? null,
        discontinued: plan.discontinued,
        successor: plan.successor,
        orderable: plan.orderable,
        orderableObservedAt: plan.orderableObservedAt,
      };
    });
  });
}
