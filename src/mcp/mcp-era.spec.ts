import { isLegacyRequest } from '@modelcontextprotocol/server';
import { isLegacyPost } from './mcp-era';

const MODERN = '2026-07-28';
const envelope = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'x', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const request = (method: string, params: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id: 1, method, params });

/** POSTs of both eras, well formed or not: [headers, body]. */
const POSTS: [Record<string, string>, unknown][] = [
  [
    {},
    request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }),
  ],
  [{}, request('tools/list')],
  [{ 'mcp-protocol-version': '2025-06-18' }, request('tools/call', { name: 'describe_filters' })],
  [{ 'mcp-protocol-version': '1999-01-01' }, request('ping')],
  [{}, { jsonrpc: '2.0', method: 'notifications/initialized' }],
  [{}, [request('ping'), { jsonrpc: '2.0', method: 'notifications/initialized' }]],
  [{}, []],
  [{}, { jsonrpc: '2.0', id: 1, result: {} }],
  [{}, { hello: 'world' }],
  [{}, { ...request('ping'), jsonrpc: '1.0' }],
  [{}, { ...request('ping'), id: 1.5 }],
  [{ 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' }, request('tools/list', { _meta: envelope })],
  [
    { 'mcp-protocol-version': MODERN, 'mcp-method': 'server/discover' },
    request('server/discover', { _meta: envelope }),
  ],
  [{ 'mcp-protocol-version': MODERN }, request('tools/list')],
  [{}, request('tools/list', { _meta: envelope })],
  [
    { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'other' },
    request('tools/call', { name: 'describe_filters', _meta: envelope }),
  ],
  [{}, [request('tools/list', { _meta: envelope })]],
];

describe(isLegacyPost.name, () => {
  it.each(POSTS)('answers as the SDK entry routes a POST with headers %j', async (headers, body) => {
    const web = new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    expect(isLegacyPost(headers, body)).toBe(await isLegacyRequest(web));
  });

  it('tells the eras apart', () => {
    expect(isLegacyPost({}, request('tools/list'))).toBe(true);
    expect(
      isLegacyPost(
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' },
        request('tools/list', { _meta: envelope }),
      ),
    ).toBe(false);
  });
});
