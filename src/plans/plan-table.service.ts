import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { DatasetService, type DatasetView } from '../dataset/dataset.service.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import { JsonDocument } from '../dataset/json-document.js';
import { STALE_AFTER_DAYS } from '../dataset/price-age.js';
import type { PlanTable } from './dto/plan-table.dto.js';
import type { PlanTableRow } from './dto/plan-table-row.dto.js';
import type { TextDocument } from '../dataset/text-document.js';
import { csvDocument } from './csv-document.js';
import { planTableCsv } from './plan-csv.js';
import { buildPlanRows, ROW_CURRENCIES } from './plan-rows.js';
import { priceAgeSummary } from './price-age-summary.js';

interface PlanTableViews {
  rows: readonly PlanTableRow[];
  json: JsonDocument<PlanTable>;
  csv: TextDocument;
}

/** The flat plan table, built once per dataset version: its rows, and the documents that publish them. */
@Injectable()
export class PlanTableService {
  private readonly views: DatasetView<PlanTableViews>;

  constructor(dataset: DatasetService, config: AppConfig) {
    this.views = dataset.view((snapshot) => buildViews(snapshot, config));
  }

  /** The rows of a given snapshot (for views built before it is served). */
  rowsFor(snapshot: DatasetSnapshot): readonly PlanTableRow[] {
    return this.views.for(snapshot).rows;
  }

  /** The rows of the snapshot being served. */
  rows(): readonly PlanTableRow[] {
    return this.views.get().rows;
  }

  /** `plans.json`, serialized. */
  json(): JsonDocument<PlanTable> {
    return this.views.get().json;
  }

  /** `plans.csv`: the same rows as RFC 4180 CSV, serialized. */
  csv(): TextDocument {
    return this.views.get().csv;
  }
}

function buildViews(snapshot: DatasetSnapshot, config: AppConfig): PlanTableViews {
  const rows = buildPlanRows(snapshot, config);
  const { meta } = snapshot;
  const json = new JsonDocument<PlanTable>(
    {
      version: meta.version,
      lastUpdated: meta.lastUpdated,
      exchangeRatesDate: snapshot.exchangeRates.dateUsedBy(
        rows.flatMap((r) => ROW_CURRENCIES.map((to) => [r.currency, to] as const)),
      ),
      license: meta.license,
      staleAfterDays: STALE_AFTER_DAYS,
      priceAge: priceAgeSummary(rows),
      count: rows.length,
      plans: rows,
    },
    meta.lastUpdated,
  );
  const csv = csvDocument(planTableCsv(rows), `vpsapi-plans-${meta.version}.csv`, meta.lastUpdated);
  return { rows, json, csv };
}
