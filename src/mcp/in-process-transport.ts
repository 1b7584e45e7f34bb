import type { Transport } from '@modelcontextprotocol/server';
import type { JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/server';

/** What the server answered to one request: a result or an error, without its id. */
export type Answer = { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } };

/**
 * The SDK's Transport interface, fed in process by the HTTP endpoint: one connected server answers
 * the requests of every POST. Each request gets an id of its own on the way in (callers reuse ids
 * freely, so theirs would collide) and the answer is matched back by that id.
 */
export class InProcessTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private nextId = 0;
  private readonly pending = new Map<number, (answer: Answer) => void>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    for (const resolve of this.pending.values()) resolve({ error: { code: -32000, message: 'The server is shutting down.' } });
    this.pending.clear();
    this.onclose?.();
  }

  /** Hands one request to the server; resolves with its answer, or undefined if `signal` fired first. */
  request(message: JSONRPCRequest, signal: AbortSignal): Promise<Answer | undefined> {
    const id = ++this.nextId;
    return new Promise((resolve) => {
      const abandon = () => {
        if (!this.pending.delete(id)) return;
        resolve(undefined);
        // The handler's AbortSignal fires; whatever it would still answer is dropped.
        this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'The HTTP request was closed.' } });
      };
      this.pending.set(id, (answer) => {
        signal.removeEventListener('abort', abandon);
        resolve(answer);
      });
      signal.addEventListener('abort', abandon, { once: true });
      this.onmessage?.({ ...message, id });
    });
  }

  /**
   * Called by the server with its answers. Notifications and requests from the server have no stream
   * to travel on in a stateless POST/JSON exchange, and none are promised (no listChanged, no
   * sampling), so they are dropped.
   */
  async send(message: JSONRPCMessage): Promise<void> {
    if ('method' in message || !('id' in message)) return;
    const resolve = this.pending.get(message.id as number);
    if (!resolve) return;
    this.pending.delete(message.id as number);
    resolve('result' in message ? { result: message.result as Record<string, unknown> } : { error: message.error });
  }
}
