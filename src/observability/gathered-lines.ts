/** Where gathered bytes go: one call per gathered batch (standard output's DescriptorSink). */
export interface LineSink {
  write(bytes: Buffer): unknown;
}

/**
 * A pino destination that gathers log lines as UTF-8 bytes in a buffer of `limit` bytes and hands
 * the buffer to `sink` when the next line would not fit, or when `flush` is called (a timer, the
 * process's exit). With a limit of 0 each line is handed on at once.
 *
 * Each line is copied into the buffer as it is logged, so the line's string is garbage at once. Kept
 * as strings until the write, lines outlived young-generation collections and were promoted, and
 * sonic-boom's own gathering (`minLength`) measures its growing string on every write, which copied
 * it: about 4 KB of garbage per logged request.
 */
export class GatheredLines {
  private buffer: Buffer;
  private used = 0;

  constructor(
    private readonly sink: LineSink,
    private readonly limit: number,
  ) {
    this.buffer = Buffer.allocUnsafe(limit);
  }

  write(line: string): boolean {
    const bytes = Buffer.byteLength(line);
    if (this.used + bytes > this.limit) {
      this.flush();
      if (bytes > this.limit) {
        this.sink.write(Buffer.from(line));
        return true;
      }
    }
    this.used += this.buffer.write(line, this.used);
    return true;
  }

  /** Hands on what is gathered, if anything; the next lines go to a fresh buffer. */
  flush(): void {
    if (this.used === 0) return;
    const full = this.used === this.limit ? this.buffer : this.buffer.subarray(0, this.used);
    this.buffer = Buffer.allocUnsafe(this.limit);
    this.used = 0;
    this.sink.write(full);
  }
}
