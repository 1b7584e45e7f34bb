import { Injectable } from '@nestjs/common';
import { isISO31661Alpha2 } from 'class-validator';
import { InvalidArgumentError } from '../common/errors/domain-errors.js';
import { DatasetService } from '../dataset/dataset.service.js';
import { DEFAULT_CURRENCY } from '../dataset/dataset-validator.js';
import type { PlanLine } from '../dataset/dto/plan-line.dto.js';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot.js';
import type { ProviderRecord } from '../dataset/dto/provider.dto.js';
import type { Source } from '../dataset/dto/source.dto.js';
import type { BackupFrequency, BackupsAddOn } from '../dataset/dto/add-ons.dto.js';
import type { Conversion } from '../dataset/exchange-rates.js';
import type { PlanTableRow } from '../plans/dto/plan-table-row.dto.js';
import { PlanTableService } from '../plans/plan-table.service.js';
import { placesOf } from '../plans/plan-locations.js';
import { countryCodeOfName } from '../plans/country-names.js';
import { resolveProviderId } from '../plans/provider-ids.js';
import { didYouMean } from '../common/suggest.js';
import { architectureOf, cpuTypeOf, PlansService } from '../plans/plans.service.js';
import { refusePlanWithFigures } from '../plans/argument-conflicts.js';
import type { BillItem, BillPeriod, CostEstimate } from './cost-estimate.js';
import { taxRate } from './tax-treatment.js';
import { trafficOverageCost, type Amount } from './traffic-overage.js';

export const DEFAULT_HORIZON_MONTHS = 12;
export const MAX_HORIZON_MONTHS = 120;

export interface CostQuery {
  providerId?: string;
  planName?: string;
  minVcpus?: number;
  minRamGb?: number;
  minStorageGb?: number;
  /** With figures: "shared" or "dedicated" vCPUs (any case); without, the cheapest plan of either kind. */
  cpuType?: string;
  /** ISO 3166-1 alpha-2 code of the customer's country; without one the bill is before VAT or sales tax. */
  country?: string;
  /** A business with a valid VAT id. */
  business?: boolean;
  /** Expected outbound traffic per month, in TB. */
  trafficTb?: number;
  /** Whether the server needs a public IPv4 address (default true). */
  ipv4?: boolean;
  /**
   * Automated backups: "daily" or "weekly" for backups at least that often, true for the provider's
   * backup add-on at whatever frequency it runs, false or absent for none.
   */
  backups?: boolean | BackupFrequency;
  horizonMonths?: number;
  currency?: string;
  /** City of the data centre, from the provider's `datacenters`. */
  datacenter?: string;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const sourceOf = (about: string, s: Source) => ({
  about,
  url: s.url,
  retrievedAt: s.retrievedAt,
  ...(s.pageDate ? { pageDate: s.pageDate } : {}),
  ...(s.copyOf ? { copyOf: s.copyOf } : {}),
});

/** A backup price as the estimate uses it: the add-on's own, or one of its other frequencies. */
type BackupPrice = Pick<BackupsAddOn, 'status' | 'percentOfPlanPrice' | 'pricePerMonth' | 'note' | 'unknownReason'>;

/**
 * The backup price that buys what was asked: `true` takes the add-on as it is (its frequency said when
 * the data states it); a frequency takes the price of that frequency, or of daily backups for weekly
 * ones (they back up at least weekly), and is unknown when the data has no price at that frequency.
 */
export function backupOptionFor(
  backups: BackupsAddOn,
  wanted: true | BackupFrequency,
): { option: BackupPrice; says: string } | { reason: string } {
  const options: (BackupPrice & { frequency?: BackupFrequency })[] = [backups, ...(backups.otherFrequencies ?? [])];
  if (wanted === true)
    return { option: backups, says: backups.frequency ? `${capitalized(backups.frequency)} backups: ` : '' };
  if (backups.status === 'unavailable')
    return { reason: backups.unknownReason ?? 'Automated backups are unavailable.' };
  const exact = options.find((o) => o.frequency === wanted);
  if (exact) return { option: exact, says: `${capitalized(wanted)} backups: ` };
  const daily = wanted === 'weekly' ? options.find((o) => o.frequency === 'daily') : undefined;
  if (daily) return { option: daily, says: 'Daily backups (they cover a weekly need; no weekly price in the data): ' };
  return {
    reason:
      backups.frequency === undefined
        ? `The data does not say how often these backups run, so no price is known for ${wanted} backups.`
        : `The data has a price for ${backups.frequency} backups only, not for ${wanted} ones.`,
  };
}

const capitalized = (word: string) => word[0].toUpperCase() + word.slice(1);

/** What a plan costs a month with its add-ons and tax, period by period, from the dataset's sourced figures only. */
@Injectable()
export class CostEstimator {
  constructor(
    private readonly dataset: DatasetService,
    private readonly table: PlanTableService,
    private readonly plans: PlansService,
  ) {}

  /**
   * The bill of a named plan, or of the cheapest no-commitment plan meeting the figures. Throws
   * InvalidArgumentError / NotFoundError for unusable arguments. `snapshot` is the dataset version to
   * price against: the one being served, or one whose pages are built before it is served (which
   * must then name the plan, since plan search reads the served version).
   */
  estimate(query: CostQuery, snapshot: DatasetSnapshot = this.dataset.current): CostEstimate {
    const { exchangeRates: rates, vatRates, providersById } = snapshot;
    const currency = (query.currency ?? DEFAULT_CURRENCY).toUpperCase();
    if (!rates.has(currency))
      throw new InvalidArgumentError(
        'currency',
        `No exchange rate for "${currency.slice(0, 10)}". Use one of: ${rates.currencies.join(', ')}.`,
      );
    // A code in any case, or a country's name ("Germany", "United Kingdom") as country-names.ts knows it.
    const asCode = query.country?.trim().toUpperCase();
    const country = asCode !== undefined && !isISO31661Alpha2(asCode) ? (countryCodeOfName(asCode) ?? asCode) : asCode;
    if (country !== undefined && !isISO31661Alpha2(country))
      throw new InvalidArgumentError(
        'country',
        `"${country.slice(0, 10)}" is not an ISO 3166-1 alpha-2 country code.${countryCodeOfName(country) ? ` Did you mean "${countryCodeOfName(country)}"?` : ''} Use e.g. DE, FR, GB or US; VAT rates are known for ${Object.keys(vatRates).join(', ')}; tax treatment is recorded for the EU, GB and US.`,
      );
    const trafficTb = query.trafficTb ?? 0;
    if (!(trafficTb >= 0))
      throw new InvalidArgumentError('trafficTb', 'Outbound traffic must be 0 or more TB a month.');
    const horizon = query.horizonMonths ?? DEFAULT_HORIZON_MONTHS;
    if (!Number.isInteger(horizon) || horizon < 1 || horizon > MAX_HORIZON_MONTHS)
      throw new InvalidArgumentError('horizonMonths', `Use a whole number of months from 1 to ${MAX_HORIZON_MONTHS}.`);

    const { row, chosenBy } = this.choosePlan(query, snapshot);
    const provider = providersById.get(row.providerId)!;
    const line = provider.planLines.find((l) => l.id === row.lineId)!;
    const regional = this.location(provider, line, query.datacenter);
    const business = query.business ?? false;
    const assumptions: string[] = [];
    const sources = [sourceOf(`${provider.name} ${line.name} prices`, line.source)];
    const convert = (a: Amount): Amount =>
      a.known ? { ...a, amount: rates.convert(a.amount, row.currency, currency) } : a;

    const periods = this.basePeriods(row, line, horizon, assumptions).map(({ fromMonth, toMonth, base: listBase }) => {
      const base: Amount = !listBase.known
        ? listBase
        : regional?.priceFactor === null
          ? { known: false, reason: regional.note }
          : { known: true, amount: listBase.amount * (regional?.priceFactor ?? 1) };
      const items: BillItem[] = [
        item('base', convert(base)),
        item('ipv4', convert(this.ipv4(provider, query.ipv4 ?? true))),
        item('backups', convert(this.backups(provider, row, base, query.backups ?? false, regional))),
        item(
          'trafficOverage',
          convert(
            trafficOverageCost(
              trafficTb,
              row.bandwidthTb,
              provider.addOns.trafficOverage,
              regional
                ? `${regional.note} Traffic allowances and overage prices there are not in the dataset.`
                : undefined,
            ),
          ),
        ),
      ];
      if (country === undefined) return period(fromMonth, toMonth, items);
      const tax = taxRate(provider, country, business, vatRates);
      const pretax = items.every((i) => i.known) ? items.reduce((s, i) => s + i.amount!, 0) : undefined;
      items.push(
        !tax.known
          ? { item: 'tax', known: false, reason: tax.reason }
          : pretax === undefined && tax.percent > 0
            ? { item: 'tax', known: false, reason: `${tax.note} It cannot be computed while another item is unknown.` }
            : { item: 'tax', known: true, amount: round2(((pretax ?? 0) * tax.percent) / 100), note: tax.note },
      );
      return period(fromMonth, toMonth, items);
    });

    const setup =
      line.setupFee === null
        ? { known: false, reason: 'The setup fee could not be confirmed.' }
        : { known: true, amount: rates.convert(line.setupFee, row.currency, currency) };
    const recurringKnown = periods.every((p) => p.known);
    const known = setup.known && recurringKnown;
    const unknownItems = [
      ...periods.flatMap((p) =>
        p.items
          .filter((i) => !i.known)
          .map((i) => ({ item: i.item, fromMonth: p.fromMonth, toMonth: p.toMonth, reason: i.reason! })),
      ),
      ...(setup.known ? [] : [{ item: 'setupFee' as const, reason: setup.reason! }]),
    ];
    const recurring = round2(periods.reduce((s, p) => s + p.knownMonthlyAmount * p.months, 0));
    const knownTotal = round2(recurring + (setup.amount ?? 0));
    this.collectSources(snapshot, provider, country, query, [row.currency, currency], sources);
    if (country === undefined) {
      assumptions.unshift(
        `No customer country given: every amount is before VAT or sales tax, which depend on the customer's country${business ? '' : ' and on whether it is a business with a VAT id'}; pass country for the bill with tax.`,
      );
    }
    if (row.stale)
      assumptions.push(
        `${row.planName}'s price is stale (${row.staleReason}); the provider may charge more or less today.`,
      );
    if (row.discontinued)
      assumptions.push(
        `${provider.name} no longer sells the ${line.name} line to new customers${row.successor ? `; it is replaced by ${row.successor}` : ''}.`,
      );
    if (currency !== row.currency)
      assumptions.push(
        `Prices billed in ${row.currency} are converted to ${currency} at the ECB reference rates of ${rates.dateUsedBy([[row.currency, currency]])}.`,
      );
    assumptions.push('Each item is rounded to cents; tax is charged on their sum.');
    if (trafficTb > 0)
      assumptions.push(
        'Traffic allowances are counted for this server alone; pooled or account-wide allowances the provider may add are not counted.',
      );
    return {
      plan: {
        providerId: provider.id,
        providerName: provider.name,
        planName: row.planName,
        line: line.id,
        priceBasis: line.priceBasis,
        ...(line.termMonths === null ? {} : { termMonths: line.termMonths }),
        promotional: line.promotional,
        price: row.price,
        ...(row.renewalPrice === null ? {} : { renewalPrice: row.renewalPrice }),
        billedCurrency: row.currency,
        ...(query.datacenter ? { datacenter: query.datacenter } : {}),
        vcpus: row.vcpus,
        ramGb: row.ramGb,
        storageGb: row.storageGb,
        bandwidthTb: row.bandwidthTb,
        cpuType: cpuTypeOf(row),
        architecture: architectureOf(line),
        observedAt: row.observedAt,
        stale: row.stale,
        staleReason: row.staleReason,
        discontinued: row.discontinued,
      },
      chosenBy,
      customer: { ...(country === undefined ? {} : { country }), business },
      taxIncluded: country !== undefined,
      currency,
      exchangeRatesDate: rates.dateUsedBy([[row.currency, currency]]),
      datasetVersion: snapshot.version,
      horizonMonths: horizon,
      lineItems: periods[0].items,
      periods,
      setupFee: setup,
      known,
      lineItemsKnown: recurringKnown,
      unknownItems,
      ...(recurringKnown ? { recurringTotalOverHorizon: recurring } : {}),
      ...(known ? { totalOverHorizon: knownTotal } : {}),
      knownTotalOverHorizon: knownTotal,
      assumptions,
      sources,
    };
  }

  private choosePlan(
    query: CostQuery,
    snapshot: DatasetSnapshot,
  ): { row: PlanTableRow; chosenBy: CostEstimate['chosenBy'] } {
    const rows = this.table.rowsFor(snapshot);
    const providerIds = [...snapshot.providersById.keys()];
    refusePlanWithFigures(query, ['minVcpus', 'minRamGb', 'minStorageGb', 'cpuType']);
    if (query.providerId !== undefined || query.planName !== undefined) {
      if (query.providerId === undefined || query.planName === undefined)
        throw new InvalidArgumentError(
          'providerId',
          'Give both providerId and planName, or neither and minVcpus / minRamGb / minStorageGb.',
        );
      const providerId = resolveProviderId(query.providerId, providerIds);
      const own = rows.filter((r) => r.providerId === providerId);
      const row = own.find((r) => r.planName.toLowerCase() === query.planName!.toLowerCase());
      if (row) return { row, chosenBy: 'name' };
      const elsewhere = rows.find((r) => r.planName.toLowerCase() === query.planName!.toLowerCase());
      const hint = elsewhere
        ? ` "${elsewhere.planName}" is a plan of ${elsewhere.providerId}.`
        : didYouMean(
            query.planName,
            own.map((r) => r.planName),
          );
      throw new InvalidArgumentError(
        'planName',
        `${providerId} sells no plan named "${query.planName.slice(0, 64)}".${hint} Plans of ${providerId}: ${own.map((r) => r.planName).join(', ')}.`,
      );
    }
    if (snapshot !== this.dataset.current)
      throw new Error('A plan can be chosen by figures only in the dataset version being served; name it.');
    const found = this.plans.find({
      minVcpus: query.minVcpus,
      minRamGb: query.minRamGb,
      minStorageGb: query.minStorageGb,
      cpuType: query.cpuType,
      limit: 50,
    });
    const match = found.plans.find(
      (p) =>
        !query.datacenter ||
        this.soldAt(
          p.providerId,
          rows.find((r) => r.providerId === p.providerId && r.planName === p.planName)!.lineId,
          query.datacenter,
        ),
    );
    if (!match)
      throw new InvalidArgumentError(
        'minRamGb',
        `No plan sold with no commitment${query.datacenter ? ` in ${query.datacenter}` : ''} meets these figures; lower them or call find_vps_plans.`,
      );
    return {
      row: rows.find((r) => r.providerId === match.providerId && r.planName === match.planName)!,
      chosenBy: 'cheapest-meeting-figures',
    };
  }

  private soldAt(providerId: string, lineId: string, city: string): boolean {
    const provider = this.dataset.current.providersById.get(providerId)!;
    const line = provider.planLines.find((l) => l.id === lineId)!;
    return placesOf(provider, line, { location: city }).length > 0;
  }

  /** The regional price entry of the chosen city, after checking the line is sold there. */
  private location(provider: ProviderRecord, line: PlanLine, city?: string) {
    if (!city) return undefined;
    const cities = provider.datacenters.map((d) => d.city);
    if (!cities.includes(city))
      throw new InvalidArgumentError(
        'datacenter',
        `${provider.id} has no data centre in "${city.slice(0, 64)}". Its cities: ${cities.join(', ')}.`,
      );
    if (line.datacenters && !line.datacenters.includes(city))
      throw new InvalidArgumentError(
        'datacenter',
        `${provider.name}'s ${line.name} line is not sold in ${city}; it is sold in ${line.datacenters.join(', ')}.`,
      );
    return line.regionalPrices?.find((r) => r.datacenters.includes(city));
  }

  /** The list price month by month: a promotional term turns into its renewal price after `termMonths`. */
  private basePeriods(
    row: PlanTableRow,
    line: PlanLine,
    horizon: number,
    assumptions: string[],
  ): { fromMonth: number; toMonth: number; base: Amount }[] {
    if (line.priceBasis !== 'prepaid-term')
      return [{ fromMonth: 1, toMonth: horizon, base: { known: true, amount: row.price } }];
    const term = line.termMonths!;
    assumptions.push(`${row.planName}'s price is the monthly equivalent of ${term} months paid up front.`);
    if (!line.promotional || horizon <= term) {
      if (!line.promotional) assumptions.push('Each new term is assumed to cost the same as the first.');
      return [{ fromMonth: 1, toMonth: horizon, base: { known: true, amount: row.price } }];
    }
    const renewal: Amount =
      row.renewalPrice === null
        ? {
            known: false,
            reason: `The introductory price ends after ${term} months; the renewal price could not be confirmed.`,
          }
        : { known: true, amount: row.renewalPrice };
    return [
      { fromMonth: 1, toMonth: term, base: { known: true, amount: row.price } },
      { fromMonth: term + 1, toMonth: horizon, base: renewal },
    ];
  }

  private ipv4(provider: ProviderRecord, wanted: boolean): Amount {
    const { ipv4 } = provider.addOns;
    if (!wanted) return { known: true, amount: 0, note: 'No IPv4 address requested.' };
    if (ipv4.status === 'included')
      return { known: true, amount: 0, note: ipv4.note ?? 'One IPv4 address is included.' };
    if (ipv4.status === 'paid' && ipv4.pricePerMonth !== null) return { known: true, amount: ipv4.pricePerMonth };
    return { known: false, reason: ipv4.unknownReason ?? 'Not confirmed.' };
  }

  private backups(
    provider: ProviderRecord,
    row: PlanTableRow,
    base: Amount,
    wanted: boolean | BackupFrequency,
    regional?: { note: string },
  ): Amount {
    if (!wanted) return { known: true, amount: 0, note: 'No backups requested.' };
    const chosen = backupOptionFor(provider.addOns.backups, wanted);
    if ('reason' in chosen) return { known: false, reason: chosen.reason };
    const { option, says } = chosen;
    const { backups } = provider.addOns;
    const own = option === backups;
    if (option.status === 'included' || (own && backups.includedInLines?.includes(row.lineId)))
      return { known: true, amount: 0, note: option.note ?? `${says}Included in the plan price.` };
    if (option.status !== 'paid')
      return { known: false, reason: option.unknownReason ?? `Automated backups are ${option.status}.` };
    if (option.percentOfPlanPrice !== null) {
      return base.known
        ? {
            known: true,
            amount: (base.amount * option.percentOfPlanPrice) / 100,
            note: `${says}${option.percentOfPlanPrice}% of the plan price.`,
          }
        : { known: false, reason: `${option.percentOfPlanPrice}% of a plan price that is unknown here.` };
    }
    if (regional) return { known: false, reason: `${regional.note} Backup prices there are not in the dataset.` };
    const flat = (own ? backups.pricesByPlan?.[row.planName] : undefined) ?? option.pricePerMonth;
    return flat === null || flat === undefined
      ? { known: false, reason: option.unknownReason ?? `No backup price for ${row.planName}.` }
      : { known: true, amount: flat, ...(says ? { note: says.trim() } : {}) };
  }

  private collectSources(
    snapshot: DatasetSnapshot,
    provider: ProviderRecord,
    country: string | undefined,
    query: CostQuery,
    conversion: Conversion,
    sources: CostEstimate['sources'],
  ): void {
    const { addOns, tax } = provider;
    const { vatRates, exchangeRates } = snapshot;
    if ((query.ipv4 ?? true) && addOns.ipv4.source) sources.push(sourceOf(`${provider.name} IPv4`, addOns.ipv4.source));
    if (query.backups && addOns.backups.source)
      sources.push(sourceOf(`${provider.name} backups`, addOns.backups.source));
    if ((query.trafficTb ?? 0) > 0 && addOns.trafficOverage.source)
      sources.push(sourceOf(`${provider.name} traffic`, addOns.trafficOverage.source));
    if (country !== undefined) tax.sources.forEach((s) => sources.push(sourceOf(`${provider.name} tax`, s)));
    if (country !== undefined && vatRates[country])
      sources.push(sourceOf(`VAT rate of ${vatRates[country].country}`, vatRates[country].source));
    // Each place a rate the bill converts with was read, dated by its rate (the table's source when none is used).
    const read = exchangeRates.sourcesUsedBy([conversion]);
    if (read.length === 0) read.push({ url: exchangeRates.sourceUrl, date: exchangeRates.dateUsedBy([]) });
    for (const { url, copyOf, date } of read)
      sources.push({ about: 'exchange rates', url, retrievedAt: date, ...(copyOf ? { copyOf } : {}) });
  }
}

function item(kind: BillItem['item'], amount: Amount): BillItem {
  if (!amount.known) return { item: kind, known: false, reason: amount.reason };
  return { item: kind, known: true, amount: round2(amount.amount), ...(amount.note ? { note: amount.note } : {}) };
}

function period(fromMonth: number, toMonth: number, items: BillItem[]): BillPeriod {
  const known = items.every((i) => i.known);
  const knownMonthlyAmount = round2(items.reduce((s, i) => s + (i.amount ?? 0), 0));
  return {
    fromMonth,
    toMonth,
    months: toMonth - fromMonth + 1,
    items,
    known,
    ...(known ? { monthlyAmount: knownMonthlyAmount } : {}),
    knownMonthlyAmount,
  };
}
