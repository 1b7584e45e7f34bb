/** An address cut to its network (/24 for IPv4, /48 for IPv6), enough to spot abuse, not to identify a person. */
export function truncatedAddress(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const v4 = /^(?:::ffff:)?(\d{1,3}\.\d{1,3}\.\d{1,3})\.\d{1,3}$/i.exec(address);
  if (v4) return `${v4[1]}.0/24`;
  if (address.includes(':')) {
    const head = address.split('::')[0].split(':').slice(0, 3);
    while (head.length < 3) head.push('0');
    return `${head.join(':')}::/48`;
  }
  return undefined;
}
