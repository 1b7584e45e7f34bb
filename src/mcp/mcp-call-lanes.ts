import { Injectable } from '@nestjs/common';
import {
  isJSONRPCRequest,
  isJSONRPCResponse,
  ProtocolErrorCode,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';

/**
 * How long a client's lane rests after a call that others of its calls wait behind, as a multiple of
 * the time that call took: at 3, a client with a backlog (a batch, parallel POSTs) uses at most a
 * quarter of the event loop, and another client's request finds it busy at most one time in four.
 */
export const REST_PER_CALL_TIME = 3;

/** The next turn of the event loop: what other clients sent meanwhile (their sockets) is read first. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const rest = (ms: number) =>
  ms >= 1 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve(undefined);

/**
 * Runs the 2025-era calls of each client one at a time, in its own lane: a call is handed to the
 * server on a turn of the event loop of its own, after the client's earlier calls were answered and
 * (when more of its calls wait) the lane rested (REST_PER_CALL_TIME). Every tool call is synchronous work for the server, and a
 * JSON-RPC batch hands the SDK transport up to a hundred at once: without lanes they ran back to back
 * in one turn and another client's request waited for all of them. A client's batch now costs its own
 * latency; clients that send nothing meanwhile are not slowed. Lanes live only while they hold calls.
 */
@Injectable()
export class McpCallLanes {
  /** Each client's lane: the end of its chain of calls, and how many calls wait to start. */
  private readonly lanes = new Map<string, { tail: Promise<void>; waiting: number }>();

  /** Clients with calls waiting or running. */
  get busy(): number {
    return this.lanes.size;
  }

  /**
   * Makes a transport connected to a server hand it the requests of one POST through `client`'s
   * lane; calls waiting when `signal` fires (the client went away) are dropped. Notifications and
   * answers pass at once.
   */
  pace(transport: Transport, client: string, signal: AbortSignal): void {
    const deliver = transport.onmessage;
    if (!deliver) throw new Error('pace needs a transport connected to a server');
    const send = transport.send.bind(transport);
    const waiting = new Map<RequestId, () => void>();
    const releaseAll = () => {
      for (const release of waiting.values()) release();
      waiting.clear();
    };
    signal.addEventListener('abort', releaseAll, { once: true });
    transport.send = async (message, options) => {
      await send(message, options);
      if (isJSONRPCResponse(message) && message.id !== undefined) {
        waiting.get(message.id)?.();
        waiting.delete(message.id);
      }
    };
    transport.onmessage = (message, extra) => {
      if (!isJSONRPCRequest(message)) return deliver(message, extra);
      this.enqueue(client, async () => {
        if (signal.aborted) return 0;
        const answered = new Promise<void>((resolve) => waiting.set(message.id, resolve));
        const started = performance.now();
        try {
          deliver(message, extra);
        } catch {
          // The server never saw the call; it still gets its answer, or the POST would wait forever.
          const error = { code: ProtocolErrorCode.InternalError, message: 'Internal error' };
          await transport.send({ jsonrpc: '2.0', id: message.id, error });
        }
        await answered;
        return performance.now() - started;
      });
    };
  }

  /**
   * Appends `call` (which resolves to the milliseconds it took) to the client's lane. The lane rests
   * after a call only when more of the client's calls wait behind it: a client that sends one call at a
   * time already leaves the loop to others while its next request travels.
   */
  private enqueue(client: string, call: () => Promise<number>): void {
    const lane = this.lanes.get(client) ?? { tail: Promise.resolve(), waiting: 0 };
    lane.waiting++;
    const tail = lane.tail
      .then(nextTurn)
      .then(async () => {
        lane.waiting--;
        const ms = await call();
        if (lane.waiting > 0) await rest(ms * REST_PER_CALL_TIME);
      })
      .catch(() => undefined);
    lane.tail = tail;
    this.lanes.set(client, lane);
    void tail.then(() => {
      if (lane.tail === tail) this.lanes.delete(client);
    });
  }
}
