import { resolve } from 'node:path';
import type { AppConfig } from '../../src/config/app-config.js';
import { CostEstimator } from '../../src/costs/cost-estimator.service.js';
import { loadDataset } from '../../src/dataset/dataset-loader.js';
import type { DatasetService } from '../../src/dataset/dataset.service.js';
import { EquivalentPlansService } from '../../src/plans/equivalent-plans.service.js';
import { PlanTableService } from '../../src/plans/plan-table.service.js';
import { PlansService } from '../../src/plans/plans.service.js';

/**
 * The plan services of the unit specs over the embedded dataset, without Nest: a DatasetService that
 * serves one loaded snapshot, and the real services built on it.
 */
export async function planServices() {
  const snapshot = await loadDataset(resolve('data'));
  const dataset = {
    current: snapshot,
    view: <T>(build: (s: typeof snapshot) => T) => {
      const value = build(snapshot);
      return { get: () => value, for: () => value };
    },
  } as unknown as DatasetService;
  const config = { url: (path: string) => `https://vpsapi.test${path}` } as unknown as AppConfig;
  const table = new PlanTableService(dataset, config);
  const plans = new PlansService(dataset, table);
  return {
    snapshot,
    plans,
    costs: new CostEstimator(dataset, table, plans),
    equivalents: new EquivalentPlansService(dataset, table),
  };
}
