import type { AppConfig } from '../config/app-config.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import type { Plan } from '../dataset/dto/plan.dto.js';
import { planFigures, type PlanFigures } from '../dataset/plan-figures.js';
import { pricedPlans } from '../dataset/plan-pricing.js';

/** A plan with its provider and parsed figures, built once per dataset version. */
export interface PlanRow extends PlanFigures {
  providerId: string;
  providerName: string;
  plan: Plan;
  /** Absolute URL of the provider's review page. */
  url: string;
}

/** Every plan of every provider, in dataset order, with figures parsed once. */
export function buildPlanRows(snapshot: DatasetSnapshot, config: AppConfig): PlanRow[] {
  return snapshot.providers.flatMap((provider) =>
    pricedPlans(provider).map((plan) => ({
      providerId: provider.id,
      providerName: provider.name,
      plan,
      url: config.url(provider.url),
      ...planFigures(plan),
    })),
  );
}
