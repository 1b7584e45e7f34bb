import { truncatedAddress } from './client-address.js';

describe('truncatedAddress', () => {
  it.each([
    ['203.0.113.7', '203.0.113.0/24'],
    ['::ffff:203.0.113.7', '203.0.113.0/24'],
    ['::FFFF:198.51.100.250', '198.51.100.0/24'],
    ['::1', '::/48'],
    ['2001:db8:abcd:12::7', '2001:db8:abcd::/48'],
    ['2001:db8:abcd:0012:0000:0000:0000:0007', '2001:db8:abcd::/48'],
    ['2001:db8::1', '2001:db8::/48'],
    ['fe80::1%eth0', 'fe80::/48'],
  ])('cuts %s to %s', (address, network) => {
    expect(truncatedAddress(address)).toBe(network);
  });

  it('keeps two hosts of one /64 in one network, and two /48s apart', () => {
    expect(truncatedAddress('2001:db8:1:2::a')).toBe(truncatedAddress('2001:db8:1:2:ffff::b'));
    expect(truncatedAddress('2001:db8:1::a')).not.toBe(truncatedAddress('2001:db8:2::a'));
  });

  it.each([undefined, '', 'not-an-address', '999.1.1.1', '1.2.3'])('gives nothing for %j', (address) => {
    expect(truncatedAddress(address)).toBeUndefined();
  });

  it('cuts the loopback address of IPv6 to its /48', () => {
    expect(truncatedAddress('::1')).toBe('::/48');
  });
});
