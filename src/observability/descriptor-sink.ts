import { writeSync } from 'node:fs';

/** Writes bytes to a descriptor and says how many it took; throws as fs.writeSync does. */
export type WriteSome = (bytes: Buffer) => number;

/** How often a backlog is offered to the descriptor again while nothing else is written. */
export const RETRY_MS = 5;

/**
 * Log bytes written to a file descriptor (standard output) from the event loop, never blocking it:
 * each batch is written at once with one write(2), and what a full pipe does not take (EAGAIN, or a
 * partial write) waits in order and is offered again on the next batch and every RETRY_MS, up to
 * `maxPending` bytes; bytes beyond that are dropped and counted.
 *
 * Standard output to a pipe (a container's, a log collector's) is non-blocking. pino's sonic-boom
 * answers a full pipe either by sleeping the whole process 100 ms per attempt (its synchronous mode)
 * or by sending every write through libuv's thread pool (its asynchronous mode): a thread hand-off
 * and an event-loop wake-up per batch (a 404 took 28.6 µs of CPU that way, 26.7 this way, in
 * `npm run bench -- --only 404`). Node's own process.stdout avoids both but loses what is still
 * queued when the process exits.
 */
export class DescriptorSink {
  private readonly pending: Buffer[] = [];
  private pendingBytes = 0;
  private timer?: NodeJS.Timeout;
  private broken = false;
  /** Bytes dropped because `maxPending` were already waiting, or the descriptor failed. */
  dropped = 0;

  constructor(
    private readonly writeSome: WriteSome,
    private readonly maxPending: number,
  ) {}

  /** A sink writing to descriptor `fd` with fs.writeSync. */
  static of(fd: number, maxPending: number): DescriptorSink {
    return new DescriptorSink((bytes) => writeSync(fd, bytes), maxPending);
  }

  /** Bytes waiting for the descriptor. */
  get waiting(): number {
    return this.pendingBytes;
  }

  write(bytes: Buffer): void {
    let rest = bytes;
    if (!this.broken && (this.pendingBytes === 0 || this.drain())) {
      const taken = this.offer(rest);
      if (taken === rest.length) return;
      rest = rest.subarray(taken);
    }
    if (this.broken || this.pendingBytes + rest.length > this.maxPending) {
      this.dropped += rest.length;
      if (this.broken) this.discard();
      return;
    }
    this.pending.push(rest);
    this.pendingBytes += rest.length;
    this.timer ??= setInterval(() => {
      if (this.drain()) this.stopRetrying();
      else if (this.broken) this.discard();
    }, RETRY_MS).unref();
  }

  /**
   * Writes what is waiting, waiting for the descriptor up to `deadlineMs` (the process is exiting:
   * a reader that stalls longer loses the rest, rather than holding the exit).
   */
  flushSync(deadlineMs: number): void {
    const until = Date.now() + deadlineMs;
    const pause = new Int32Array(new SharedArrayBuffer(4));
    while (!this.drain() && !this.broken && Date.now() < until) Atomics.wait(pause, 0, 0, 1);
    this.discard();
  }

  /** Offers the waiting bytes, in order; true when none is left. */
  private drain(): boolean {
    while (this.pending.length > 0) {
      const first = this.pending[0];
      const taken = this.offer(first);
      if (this.broken) return false;
      this.pendingBytes -= taken;
      if (taken < first.length) {
        this.pending[0] = first.subarray(taken);
        return false;
      }
      this.pending.shift();
    }
    return true;
  }

  /** How many bytes the descriptor took: 0 when it would block, or when it failed (`broken`). */
  private offer(bytes: Buffer): number {
    try {
      return this.writeSome(bytes);
    } catch (error) {
      // EPIPE (nobody reads any more) or another failure: there is nowhere left to log to.
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') this.broken = true;
      return 0;
    }
  }

  /** Drops (and counts) whatever is still waiting, and stops offering it. */
  private discard(): void {
    this.dropped += this.pendingBytes;
    this.pending.length = 0;
    this.pendingBytes = 0;
    this.stopRetrying();
  }

  private stopRetrying(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
