import type { PlanArchitecture, PlanCpuType } from '../plans/closest-plans.js';
/** The parts of a monthly bill, in the order they are listed. */
export const BILL_ITEMS = ['base', 'ipv4', 'backups', 'trafficOverage', 'tax'] as const;
export type BillItemKind = (typeof BILL_ITEMS)[number];

/** One part of a monthly bill: its amount when known, otherwise why not (never a guess). */
export interface BillItem {
  item: BillItemKind;
  known: boolean;
  /** Per month, in the estimate's currency; absent when unknown. */
  amount?: number;
  /** Why the amount is unknown; only when `known` is false. */
  reason?: string;
  /** What the amount assumes or leaves out. */
  note?: string;
}

/** A run of months billed the same: a promotional term, then its renewal. */
export interface BillPeriod {
  fromMonth: number;
  toMonth: number;
  months: number;
  items: BillItem[];
  known: boolean;
  /** The sum of the items per month; absent when any item is unknown. */
  monthlyAmount?: number;
  /** The sum of the known items per month: a floor when `known` is false. */
  knownMonthlyAmount: number;
}

export interface CostEstimate {
  plan: {
    providerId: string;
    providerName: string;
    planName: string;
    line: string;
    priceBasis: string;
    termMonths?: number;
    promotional: boolean;
    price: number;
    renewalPrice?: number;
    billedCurrency: string;
    datacenter?: string;
    vcpus: number | null;
    ramGb: number | null;
    storageGb: number | null;
    bandwidthTb: number | null;
    /** Shared or dedicated vCPUs ("unknown" where the data does not say), and the CPU architecture the data states. */
    cpuType: PlanCpuType;
    architecture: PlanArchitecture;
    /** The day the provider showed `price`, and whether that price is stale (and why). */
    observedAt: string;
    stale: boolean;
    staleReason: string | null;
    /** True when the provider no longer sells the plan's line (a bill for a plan you already have). */
    discontinued: boolean;
  };
  /** How the plan was chosen: named by the caller, or the cheapest no-commitment plan meeting the figures. */
  chosenBy: 'name' | 'cheapest-meeting-figures';
  /** The customer: its country when given (tax depends on it), and whether it is a business with a VAT id. */
  customer: { country?: string; business: boolean };
  /** False when no country was given: every amount is before VAT or sales tax, and no tax item is listed. */
  taxIncluded: boolean;
  currency: string;
  /** Day of the oldest exchange rate the bill converts with; the newest rate's day when it converts nothing. */
  exchangeRatesDate: string;
  /** The dataset version (release day) the prices and their ages are read from. */
  datasetVersion: string;
  horizonMonths: number;
  /** The bill of the first month, item by item (the first period's items). */
  lineItems: BillItem[];
  periods: BillPeriod[];
  /** One-time setup fee, in `currency`. */
  setupFee: { known: boolean; amount?: number; reason?: string };
  /** Every figure known, the one-time setup fee included: exactly when `totalOverHorizon` is given. */
  known: boolean;
  /** Every line item of every period known (the setup fee aside, see unknownItems). */
  lineItemsKnown: boolean;
  /** Each unknown figure by name: line items with the months they cover, and the setup fee; empty when all are known. */
  unknownItems: { item: BillItemKind | 'setupFee'; fromMonth?: number; toMonth?: number; reason: string }[];
  /** Every month of the horizon, without the one-time setup fee; absent when a monthly figure is unknown. */
  recurringTotalOverHorizon?: number;
  /** Every month of the horizon plus the setup fee; absent when any figure is unknown. */
  totalOverHorizon?: number;
  /** The same sum over the known figures only: a floor when `known` is false. */
  knownTotalOverHorizon: number;
  assumptions: string[];
  sources: { about: string; url: string; retrievedAt: string; pageDate?: string; copyOf?: string }[];
}
