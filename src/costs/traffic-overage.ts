import type { TrafficOverageAddOn, TrafficUnit } from '../dataset/dto/add-ons.dto.js';

/** How many of each unit make one decimal terabyte (10^12 bytes): the conversion is exact, nothing is rounded. */
export const UNITS_PER_TB: Record<TrafficUnit, number> = { TB: 1, GB: 1000, GiB: 1e12 / 2 ** 30 };

/** A monthly amount in the provider's currency, or why it is unknown; `note` for what the figure does not show. */
export type Amount = { known: true; amount: number; note?: string } | { known: false; reason: string };

/**
 * What outbound traffic beyond the plan's allowance costs a month. `allowanceTb` is null when the plan
 * states no volume; `regionalReason` is set where the location's allowance and prices are not in the dataset.
 */
export function trafficOverageCost(
  trafficTb: number,
  allowanceTb: number | null,
  overage: TrafficOverageAddOn,
  regionalReason?: string,
): Amount {
  if (trafficTb === 0) return { known: true, amount: 0 };
  switch (overage.status) {
    case 'unmetered':
      return { known: true, amount: 0, note: 'Traffic is unmetered.' };
    case 'throttled':
      return allowanceTb !== null && trafficTb > allowanceTb
        ? {
            known: true,
            amount: 0,
            note: `Nothing is charged, but ${trafficTb} TB is over the ${allowanceTb} TB allowance, so the server is slowed once the allowance is used.${overage.note ? ` ${overage.note}` : ''}`,
          }
        : { known: true, amount: 0 };
    case 'unknown':
      return { known: false, reason: overage.unknownReason ?? 'The traffic policy is not confirmed.' };
    case 'charged': {
      if (regionalReason) return { known: false, reason: regionalReason };
      if (allowanceTb === null) return { known: false, reason: 'The plan states no traffic allowance as a volume.' };
      const excessTb = Math.max(0, trafficTb - allowanceTb);
      if (excessTb === 0) return { known: true, amount: 0, note: `Within the ${allowanceTb} TB allowance.` };
      if (overage.price === null || overage.unit === undefined)
        return { known: false, reason: overage.unknownReason ?? 'The overage price is not confirmed.' };
      return {
        known: true,
        amount: excessTb * overage.price * UNITS_PER_TB[overage.unit],
        note: `${excessTb} TB over the ${allowanceTb} TB allowance at ${overage.price} per ${overage.unit}.`,
      };
    }
  }
}
