import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/server';
import { InProcessTransport } from './in-process-transport';

const request = (id: number | string, method = 'tools/list'): JSONRPCRequest => ({ jsonrpc: '2.0', id, method });

/** A transport with a fake server that records what it receives. */
function harness() {
  const transport = new InProcessTransport();
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message: JSONRPCMessage) => received.push(message);
  return { transport, received };
}

describe(InProcessTransport.name, () => {
  it('gives every request an id of its own and matches the answer back to it', async () => {
    const { transport, received } = harness();
    const signal = new AbortController().signal;
    // Two callers both using id 1: the server sees two different ids.
    const first = transport.request(request(1), signal);
    const second = transport.request(request(1, 'tools/call'), signal);
    const [a, b] = received as JSONRPCRequest[];
    expect(a.id).not.toBe(b.id);
    expect([a.method, b.method]).toEqual(['tools/list', 'tools/call']);
    // Answered out of order, each promise gets its own answer.
    await transport.send({ jsonrpc: '2.0', id: b.id, result: { which: 'second' } });
    await transport.send({ jsonrpc: '2.0', id: a.id, error: { code: -32602, message: 'bad' } });
    await expect(first).resolves.toEqual({ error: { code: -32602, message: 'bad' } });
    await expect(second).resolves.toEqual({ result: { which: 'second' } });
  });

  it('drops messages from the server that answer nothing pending', async () => {
    const { transport } = harness();
    await expect(transport.send({ jsonrpc: '2.0', id: 99, result: {} })).resolves.toBeUndefined();
    await expect(transport.send({ jsonrpc: '2.0', method: 'notifications/message', params: {} })).resolves.toBeUndefined();
  });

  it('abandons a request when its caller goes away, and tells the server to cancel it', async () => {
    const { transport, received } = harness();
    const closed = new AbortController();
    const pending = transport.request(request('abc'), closed.signal);
    const sentId = (received[0] as JSONRPCRequest).id;
    closed.abort();
    await expect(pending).resolves.toBeUndefined();
    expect(received[1]).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: sentId, reason: 'The HTTP request was closed.' } });
    // A late answer for it is dropped, not delivered to anyone.
    await transport.send({ jsonrpc: '2.0', id: sentId, result: {} });
    expect(received).toHaveLength(2);
  });

  it('does not cancel a request that was answered before its caller went away', async () => {
    const { transport, received } = harness();
    const closed = new AbortController();
    const pending = transport.request(request(1), closed.signal);
    await transport.send({ jsonrpc: '2.0', id: (received[0] as JSONRPCRequest).id, result: { ok: true } });
    closed.abort();
    await expect(pending).resolves.toEqual({ result: { ok: true } });
    expect(received).toHaveLength(1);
  });

  it('answers every pending request with an error on shutdown and reports the close', async () => {
    const { transport } = harness();
    const onclose = jest.fn();
    transport.onclose = onclose;
    const signal = new AbortController().signal;
    const pending = [transport.request(request(1), signal), transport.request(request(2), signal)];
    await transport.close();
    for (const answer of await Promise.all(pending)) expect(answer).toEqual({ error: { code: -32000, message: 'The server is shutting down.' } });
    expect(onclose).toHaveBeenCalledTimes(1);
  });

  it('does not mistake a request from the server for the answer to a pending request with the same id', async () => {
    const { transport, received } = harness();
    const pending = transport.request(request(1), new AbortController().signal);
    const sentId = (received[0] as JSONRPCRequest).id;
    await transport.send({ jsonrpc: '2.0', id: sentId, method: 'sampling/createMessage', params: {} } as never);
    await transport.send({ jsonrpc: '2.0', id: sentId, result: { answered: true } });
    await expect(pending).resolves.toEqual({ result: { answered: true } });
  });

  it('sends no cancellation for a request the shutdown already answered', async () => {
    const { transport, received } = harness();
    const closed = new AbortController();
    const pending = transport.request(request(1), closed.signal);
    await transport.close();
    closed.abort();
    await expect(pending).resolves.toEqual({ error: { code: -32000, message: 'The server is shutting down.' } });
    expect(received).toHaveLength(1);
  });

  it('closes and abandons without listeners set, before any server is connected', async () => {
    const transport = new InProcessTransport();
    const closed = new AbortController();
    const pending = transport.request(request(1), closed.signal);
    closed.abort();
    await expect(pending).resolves.toBeUndefined();
    await expect(transport.close()).resolves.toBeUndefined();
  });
});
