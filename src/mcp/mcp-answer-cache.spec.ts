import type { JSONRPCRequest } from '@modelcontextprotocol/server';
import { canonicalKey } from './mcp-request-keys.js';

const request = (params: unknown, id: string | number = 1) => ({ jsonrpc: '2.0', id, method: 'tools/call', params }) as unknown as JSONRPCRequest;

describe(canonicalKey.name, () => {
  it('is the protocol version, the method and the params with every object key sorted, without the id', () => {
    expect(canonicalKey(request({ name: 'x', arguments: { b: [{ z: 1, a: null }, 'q'], a: true } }, 7), '2025-06-18')).toBe(
      '2025-06-18\ntools/call\n{"arguments":{"a":true,"b":[{"a":null,"z":1},"q"]},"name":"x"}',
    );
  });

  it('is the same whatever order the keys come in and whatever the id', () => {
    const orders = [
      { name: 'find_vps_plans', arguments: { minRamGb: 4, currency: 'EUR', regions: ['europe', 'asia'] } },
      { arguments: { regions: ['europe', 'asia'], currency: 'EUR', minRamGb: 4 }, name: 'find_vps_plans' },
    ];
    expect(canonicalKey(request(orders[0], 1), undefined)).toBe(canonicalKey(request(orders[1], 'other'), undefined));
  });

  it('keeps what changes the answer apart: array order, values, types, the version, absent and empty params', () => {
    const keys = [
      canonicalKey(request({ a: [1, 2] }), undefined),
      canonicalKey(request({ a: [2, 1] }), undefined),
      canonicalKey(request({ a: ['1', 2] }), undefined),
      canonicalKey(request({ a: [1, 2] }), '2025-06-18'),
      canonicalKey(request({ a: [1, 2] }), ['2025-06-18', '2025-03-26']),
      canonicalKey(request(undefined), undefined),
      canonicalKey(request({}), undefined),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('keeps a number the parser read as non-finite apart from null (JSON.stringify writes both as null)', () => {
    const parsed = JSON.parse('{"arguments":{"minRamGb":1e400},"name":"find_vps_plans"}');
    expect(parsed.arguments.minRamGb).toBe(Infinity);
    const keys = [
      canonicalKey(request(parsed), undefined),
      canonicalKey(request({ arguments: { minRamGb: null }, name: 'find_vps_plans' }), undefined),
      canonicalKey(request({ arguments: { minRamGb: -Infinity }, name: 'find_vps_plans' }), undefined),
      canonicalKey(request({ arguments: { minRamGb: NaN }, name: 'find_vps_plans' }), undefined),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('leaves out members whose value is undefined, as JSON does', () => {
    expect(canonicalKey(request({ b: undefined, a: 1, c: undefined }), undefined)).toBe('\ntools/call\n{"a":1}');
    expect(canonicalKey(request({ b: undefined }), undefined)).toBe('\ntools/call\n{}');
  });

  it('orders keys by code unit, as sort() does', () => {
    expect(canonicalKey(request({ b: 1, B: 2, a: 3, é: 4, _: 5 }), undefined)).toBe('\ntools/call\n{"B":2,"_":5,"a":3,"b":1,"é":4}');
  });
});
