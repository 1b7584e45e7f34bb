import type { SpecRecord, UseCaseRecord } from '../dataset/dto/use-case.dto.js';

/**
 * How expected traffic sizes a workload, by documented thresholds on visits a month (docs/mcp.md):
 * up to 50,000 the use case's minimum spec carries it, up to 500,000 its recommended spec, up to
 * 2,000,000 the recommended spec with twice the vCPUs and RAM, beyond that four times (where a cache
 * or CDN in front, or a second server, starts to matter more than a bigger one). Transfer is at least
 * 2 MB a visit (about the median web page's weight, HTTP Archive), rounded up to a tenth of a TB;
 * disk is the chosen spec's. Deliberately coarse: it says which spec the traffic calls for, not a
 * capacity plan.
 */
export const SCALE_TIERS = [
  { upTo: 50_000, base: 'minimum', factor: 1 },
  { upTo: 500_000, base: 'recommended', factor: 1 },
  { upTo: 2_000_000, base: 'recommended', factor: 2 },
  { upTo: Infinity, base: 'recommended', factor: 4 },
] as const;

/** Decimal megabytes of transfer counted per visit. */
export const MB_PER_VISIT = 2;

export interface ScaledSpec {
  spec: SpecRecord;
  /** How the traffic changed the spec, in one sentence. */
  note: string;
}

/** The spec `visitsPerMonth` calls for, from the use case's own specs. */
export function scaleSpec(useCase: UseCaseRecord, visitsPerMonth: number): ScaledSpec {
  const tier = SCALE_TIERS.find((t) => visitsPerMonth <= t.upTo)!;
  const base = tier.base === 'minimum' ? useCase.minimumSpec : useCase.recommendedSpec;
  // Tenths of a TB are units of 100,000 MB: whole-number arithmetic, so 3,000,000 visits are 6 TB, not 6.1.
  const trafficTb = Math.ceil((visitsPerMonth * MB_PER_VISIT) / 100_000) / 10;
  const spec: SpecRecord = {
    vcpus: base.vcpus * tier.factor,
    ramGb: base.ramGb * tier.factor,
    storageGb: base.storageGb,
    bandwidthTb: Math.max(base.bandwidthTb, trafficTb),
  };
  const visits = visitsPerMonth.toLocaleString('en-US');
  const sized =
    tier.factor === 1 ? `the ${tier.base} spec` : `the recommended spec with ${tier.factor} times its vCPUs and RAM`;
  const transfer =
    spec.bandwidthTb > base.bandwidthTb
      ? `, and transfer raised to ${spec.bandwidthTb} TB a month (${MB_PER_VISIT} MB a visit)`
      : `; its ${base.bandwidthTb} TB of transfer covers ${MB_PER_VISIT} MB a visit`;
  const tierText = Number.isFinite(tier.upTo)
    ? `up to ${tier.upTo.toLocaleString('en-US')}`
    : `over ${SCALE_TIERS[SCALE_TIERS.length - 2].upTo.toLocaleString('en-US')}`;
  return { spec, note: `${visits} visits a month (${tierText}) call for ${sized}${transfer}.` };
}
