/** Where gathered text goes: one call per gathered batch (pino's sonic-boom destination, in sync mode). */
export interface LineSink {
  write(text: string): unknown;
}

/**
 * A pino destination that gathers log lines and hands them to `sink` in one piece once they reach
 * `limit` characters, or when `flush` is called (a timer, the process's exit).
 *
 * sonic-boom's own gathering (`minLength`) appends each line to one growing string and measures that
 * string's byte length on every write, which copies it: with an 8 KiB buffer that was about 4 KB of
 * garbage per logged request. Here the lines are kept apart and joined once per batch.
 */
export class GatheredLines {
  private lines: string[] = [];
  private length = 0;

  constructor(
    private readonly sink: LineSink,
    private readonly limit: number,
  ) {}

  write(line: string): boolean {
    this.lines.push(line);
    this.length += line.length;
    if (this.length >= this.limit) this.flush();
    return true;
  }

  /** Hands on what is gathered, if anything. */
  flush(): void {
    if (this.lines.length === 0) return;
    const text = this.lines.length === 1 ? this.lines[0] : this.lines.join('');
    this.lines = [];
    this.length = 0;
    this.sink.write(text);
  }
}
