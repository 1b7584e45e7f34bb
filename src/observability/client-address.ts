import ipaddr from 'ipaddr.js';

/**
 * An address cut to its network (/24 for IPv4, /48 for IPv6), enough to spot abuse, not to identify a
 * person. An IPv4-mapped IPv6 address (`::ffff:203.0.113.7`) is cut as the IPv4 address it carries.
 * Parsing and formatting are ipaddr.js's (the library Express's proxy-addr uses), so every IPv6 form
 * (`::1`, `2001:db8::7`, a zone id) is read right; text that is not an address gives undefined.
 */
export function truncatedAddress(address: string | undefined): string | undefined {
  if (!address) return undefined;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/%.*$/, ''));
  } catch {
    return undefined;
  }
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (parsed.kind() === 'ipv4') {
    const [a, b, c] = (parsed as ipaddr.IPv4).octets;
    return `${new ipaddr.IPv4([a, b, c, 0]).toString()}/24`;
  }
  const [p0, p1, p2] = (parsed as ipaddr.IPv6).parts;
  return `${new ipaddr.IPv6([p0, p1, p2, 0, 0, 0, 0, 0]).toString()}/48`;
}
