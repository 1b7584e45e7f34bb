import type { AppConfig } from '../config/app-config.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import type { Plan } from '../dataset/dto/plan.dto.js';
import { planFigures, type PlanFigures } from '../dataset/plan-figures.js';

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
    provider.plans.map((plan) => ({
      providerId: provider.id,
      providerName: provider.name,
      plan,
      url: config.url(provider.url),
      ...planFigures(plan),
    })),
  );
}

/** Minimum resources a plan must offer; an unset bound is no constraint, an unreadable figure fails a set one. */
export interface SpecBounds {
  minVcpus?: number;
  minRamGb?: number;
  minStorageGb?: number;
}

export function meetsSpec(row: PlanFigures, bounds: SpecBounds): boolean {
  const atLeast = (value: number | null, min?: number) => min === undefined || (value !== null && value >= min);
  return atLeast(row.vcpus, bounds.minVcpus) && atLeast(row.ramGb, bounds.minRamGb) && atLeast(row.storageGb, bounds.minStorageGb);
}
