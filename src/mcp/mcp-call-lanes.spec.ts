import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { McpCallLanes } from './mcp-call-lanes';

/** A transport whose server answers each request on the next turn, recording when calls start and end. */
function fakeTransport(events: string[], label: string) {
  const transport = {
    send: async (message: JSONRPCMessage) => void events.push(`${label}:end:${(message as { id: number }).id}`),
  } as unknown as Transport;
  transport.onmessage = (message) => {
    const { id } = message as { id: number };
    events.push(`${label}:start:${id}`);
    setImmediate(() => void transport.send({ jsonrpc: '2.0', id, result: {} }));
  };
  return transport;
}
const call = (id: number) => ({ jsonrpc: '2.0' as const, id, method: 'tools/call', params: {} });
const settled = (lanes: McpCallLanes) =>
  new Promise<void>((resolve) => {
    const check = () => (lanes.busy === 0 ? resolve() : setImmediate(check));
    check();
  });

describe(McpCallLanes.name, () => {
  it("runs one client's calls one at a time, in order, and drops the lane once they are answered", async () => {
    const lanes = new McpCallLanes();
    const events: string[] = [];
    const transport = fakeTransport(events, 'a');
    lanes.pace(transport, 'client-a', new AbortController().signal);
    for (const id of [1, 2, 3]) transport.onmessage!(call(id));
    expect(events).toEqual([]);
    expect(lanes.busy).toBe(1);
    await settled(lanes);
    expect(events).toEqual(['a:start:1', 'a:end:1', 'a:start:2', 'a:end:2', 'a:start:3', 'a:end:3']);
  });

  it("does not queue another client's call behind a client's backlog", async () => {
    const lanes = new McpCallLanes();
    const events: string[] = [];
    const hog = fakeTransport(events, 'hog');
    const other = fakeTransport(events, 'other');
    lanes.pace(hog, 'hog', new AbortController().signal);
    lanes.pace(other, 'other', new AbortController().signal);
    for (const id of [1, 2, 3, 4, 5]) hog.onmessage!(call(id));
    other.onmessage!(call(1));
    await settled(lanes);
    expect(events.indexOf('other:end:1')).toBeLessThan(events.indexOf('hog:start:3'));
  });

  it('drops the calls still waiting when the client goes away', async () => {
    const lanes = new McpCallLanes();
    const events: string[] = [];
    const transport = fakeTransport(events, 'a');
    const gone = new AbortController();
    lanes.pace(transport, 'client-a', gone.signal);
    for (const id of [1, 2, 3]) transport.onmessage!(call(id));
    gone.abort();
    await settled(lanes);
    expect(events.filter((e) => e.includes('start'))).toEqual([]);
  });

  it('answers a call whose delivery throws with an internal error', async () => {
    const lanes = new McpCallLanes();
    const sent: JSONRPCMessage[] = [];
    const transport = {
      send: async (message: JSONRPCMessage) => void sent.push(message),
      onmessage: () => {
        throw new Error('boom');
      },
    } as unknown as Transport;
    lanes.pace(transport, 'client', new AbortController().signal);
    transport.onmessage!(call(7));
    await settled(lanes);
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'Internal error' } }]);
  });
});
