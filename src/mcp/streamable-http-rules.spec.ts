import { JSON_RPC } from '../common/http/json-rpc-error';
import { MAX_BATCH_SIZE, readMcpPost, type McpPost } from './streamable-http-rules';

const ACCEPT = 'application/json, text/event-stream';
const call = (id: number, method = 'tools/list') => ({ jsonrpc: '2.0', id, method });
const post = (overrides: Partial<McpPost> = {}): McpPost => ({ accept: ACCEPT, contentType: 'application/json', protocolVersion: undefined, body: call(1), ...overrides });
const problemOf = (p: McpPost) => {
  const reading = readMcpPost(p);
  return reading.kind === 'refuse' ? { status: reading.problem.status, jsonRpcCode: reading.problem.jsonRpcCode, message: reading.problem.message } : reading.kind;
};

describe(readMcpPost.name, () => {
  it('answers a single request, not as a batch', () => {
    expect(readMcpPost(post())).toEqual({ kind: 'answer', batch: false, requests: [call(1)] });
  });

  it('answers a batch in order, leaving notifications out', () => {
    const body = [call(2), { jsonrpc: '2.0', method: 'notifications/initialized' }, call(3, 'tools/call')];
    expect(readMcpPost(post({ body }))).toEqual({ kind: 'answer', batch: true, requests: [call(2), call(3, 'tools/call')] });
  });

  it('accepts notifications and responses only, with nothing to answer', () => {
    expect(readMcpPost(post({ body: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } } }))).toEqual({ kind: 'accept' });
    expect(readMcpPost(post({ body: [{ jsonrpc: '2.0', id: 5, result: {} }] }))).toEqual({ kind: 'accept' });
  });

  it.each([
    ['no Accept', { accept: undefined }, 406],
    ['Accept without text/event-stream', { accept: 'application/json' }, 406],
    ['Accept without application/json', { accept: 'text/event-stream' }, 406],
  ])('refuses %s with 406', (_n, overrides, status) => {
    expect(problemOf(post(overrides))).toMatchObject({ status });
  });

  it('refuses a body that is not declared as JSON with 415', () => {
    expect(problemOf(post({ contentType: 'text/plain' }))).toMatchObject({ status: 415 });
    expect(problemOf(post({ contentType: 'application/json; charset=utf-8' }))).toBe('answer');
  });

  it('refuses what is not a JSON-RPC message as a parse error', () => {
    for (const body of [{ hello: 'world' }, 'x', [call(1), { jsonrpc: '1.0', id: 2, method: 'x' }], []]) {
      expect(problemOf(post({ body }))).toMatchObject({ status: 400, jsonRpcCode: JSON_RPC.parseError });
    }
  });

  it(`refuses a batch of more than ${MAX_BATCH_SIZE} messages, and accepts one of exactly that many`, () => {
    const batch = (n: number) => Array.from({ length: n }, (_, i) => call(i + 1));
    expect(problemOf(post({ body: batch(MAX_BATCH_SIZE + 1) }))).toMatchObject({ status: 400, message: expect.stringContaining(`at most ${MAX_BATCH_SIZE}`) });
    expect(problemOf(post({ body: batch(MAX_BATCH_SIZE) }))).toBe('answer');
  });

  it('refuses initialize in a batch, and takes it alone whatever protocol version header comes with it', () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };
    expect(problemOf(post({ body: [init, call(2)] }))).toMatchObject({ status: 400, message: expect.stringContaining('initialize') });
    expect(problemOf(post({ body: init, protocolVersion: '1999-01-01' }))).toBe('answer');
  });

  it('refuses an unsupported MCP-Protocol-Version after initialize, and takes a supported one or none', () => {
    expect(problemOf(post({ protocolVersion: '1999-01-01' }))).toMatchObject({ status: 400, message: expect.stringContaining('MCP-Protocol-Version') });
    expect(problemOf(post({ protocolVersion: '2025-06-18' }))).toBe('answer');
    expect(problemOf(post({ protocolVersion: undefined }))).toBe('answer');
  });
});
