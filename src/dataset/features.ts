/** The platform features every provider record rates, in the order pages and lists show them. */
export const FEATURE_KEYS = [
  'ipv6',
  'snapshots',
  'automatedBackups',
  'api',
  'hourlyBilling',
  'ddosProtection',
  'managedKubernetes',
  'objectStorage',
] as const;
export type FeatureKey = (typeof FEATURE_KEYS)[number];

/** `included` in the plan price, a `paid` add-on, or `unavailable`. */
export const FEATURE_STATUSES = ['included', 'paid', 'unavailable'] as const;
export type FeatureStatus = (typeof FEATURE_STATUSES)[number];

/** How a feature is named: `label` in lists and tables, `prose` inside a sentence. */
export const FEATURE_NAMES: Record<FeatureKey, { label: string; prose: string }> = {
  ipv6: { label: 'IPv6', prose: 'IPv6' },
  snapshots: { label: 'Snapshots', prose: 'snapshots' },
  automatedBackups: { label: 'Automated backups', prose: 'automated backups' },
  api: { label: 'API', prose: 'an API' },
  hourlyBilling: { label: 'Hourly billing', prose: 'hourly billing' },
  ddosProtection: { label: 'DDoS protection', prose: 'DDoS protection' },
  managedKubernetes: { label: 'Managed Kubernetes', prose: 'managed Kubernetes' },
  objectStorage: { label: 'Object storage', prose: 'object storage' },
};

/** Marks a paid feature in the contract's `features` list. */
export const PAID_SUFFIX = ' (paid add-on)';

/**
 * The contract's `features`: the label of every feature offered, in `FEATURE_KEYS` order, with
 * " (paid add-on)" after those that cost extra. Unavailable features are left out.
 */
export function featureList(details: Record<FeatureKey, { status: FeatureStatus }>): string[] {
  return FEATURE_KEYS.filter((key) => details[key].status !== 'unavailable').map(
    (key) => FEATURE_NAMES[key].label + (details[key].status === 'paid' ? PAID_SUFFIX : ''),
  );
}

/** True when the feature can be had at all, included or paid. */
export const isOffered = (detail: { status: FeatureStatus }) => detail.status !== 'unavailable';
