import { vettingKeyOf } from './mcp-request-keys.js';

const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const keyOf = (...args: Parameters<typeof vettingKeyOf>) => vettingKeyOf(...args)?.key;
const call = (id: unknown, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'find_vps_plans', arguments: args } });

describe('vettingKeyOf: what the transport rules decide a single request on', () => {
  it('is the same for requests that differ only in a well-formed id or in the order of keys', () => {
    const key = keyOf(headers, call(1, { minRamGb: 4, currency: 'EUR' }));
    expect(key).toEqual(expect.any(String));
    expect(vettingKeyOf(headers, call(1, { minRamGb: 4, currency: 'EUR' }))?.canonical).toBe(`\ntools/call\n{"arguments":{"currency":"EUR","minRamGb":4},"name":"find_vps_plans"}`);
    expect(keyOf(headers, call('a-string', { currency: 'EUR', minRamGb: 4 }))).toBe(key);
    expect(keyOf(headers, call(-9007199254740991, { minRamGb: 4, currency: 'EUR' }))).toBe(key);
    expect(keyOf(headers, { params: call(1, {}).params, method: 'tools/call', id: 2, jsonrpc: '2.0' })).toBe(keyOf(headers, call(3, {})));
  });

  it('differs with the headers the rules read and with the request without its id', () => {
    const key = keyOf(headers, call(1, { minRamGb: 4 }));
    expect(keyOf({ ...headers, accept: 'application/json' }, call(1, { minRamGb: 4 }))).not.toBe(key);
    expect(keyOf({ ...headers, 'content-type': 'application/json; charset=utf-8' }, call(1, { minRamGb: 4 }))).not.toBe(key);
    expect(keyOf({ ...headers, 'mcp-protocol-version': '2025-06-18' }, call(1, { minRamGb: 4 }))).not.toBe(key);
    expect(keyOf(headers, call(1, { minRamGb: 8 }))).not.toBe(key);
    expect(keyOf(headers, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).not.toBe(keyOf(headers, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));
  });

  it.each([
    ['a batch', [call(1, {})]],
    ['a non-object', 'tools/list'],
    ['null', null],
    ['a member the rules might refuse', { ...call(1, {}), extra: true }],
    ['a notification (no id)', { jsonrpc: '2.0', method: 'tools/list' }],
    ['another JSON-RPC version', { ...call(1, {}), jsonrpc: '1.0' }],
    ['a method that is not a string', { jsonrpc: '2.0', id: 1, method: 7 }],
    ['a fractional id', call(1.5, {})],
    ['an id beyond the safe integers', call(2 ** 53, {})],
    ['an object id', call({ a: 1 }, {})],
    ['a null id', call(null, {})],
    ['null params (keyed like absent ones)', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: null }],
    ['array params', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [] }],
    ['a key longer than is kept', call(1, { query: 'x'.repeat(3000) })],
  ])('leaves %s to the full rules', (_kind, body) => {
    expect(vettingKeyOf(headers, body)).toBeUndefined();
  });

  it('leaves requests with the 2026-07-28 method headers to the full rules', () => {
    expect(vettingKeyOf({ ...headers, 'mcp-method': 'tools/call' }, call(1, {}))).toBeUndefined();
    expect(vettingKeyOf({ ...headers, 'mcp-name': 'find_vps_plans' }, call(1, {}))).toBeUndefined();
  });
});
