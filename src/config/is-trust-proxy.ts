import { ValidateBy } from 'class-validator';
import proxyAddr from 'proxy-addr';

/** Off, or a hop count, or a comma-separated list of addresses, CIDRs and proxy-addr names. */
export type TrustProxy = false | number | string[];

/**
 * Parses TRUST_PROXY. Trusting every proxy ("true") is refused: it would let any client choose its
 * own address, and with it its rate limit.
 */
export function parseTrustProxy(value: string): TrustProxy | undefined {
  const v = value.trim();
  if (v === '' || v.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    return hops === 0 ? false : hops <= 10 ? hops : undefined;
  }
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    proxyAddr.compile(list);
    return list;
  } catch {
    return undefined;
  }
}

export function IsTrustProxy(): PropertyDecorator {
  return ValidateBy({
    name: 'isTrustProxy',
    validator: {
      validate: (value) => typeof value === 'string' && parseTrustProxy(value) !== undefined,
      defaultMessage: () =>
        'must be false, a hop count from 1 to 10, or a comma-separated list of proxy addresses or CIDRs (e.g. 10.0.0.0/8, loopback)',
    },
  });
}
