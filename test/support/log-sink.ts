import { Writable } from 'node:stream';

type LogLine = Record<string, any>;

/** A log destination that keeps every JSON line the app writes, for tests to read back. */
export function logSink() {
  const lines: LogLine[] = [];
  const waiters = new Set<{ matches: (line: LogLine) => boolean; resolve: (line: LogLine) => void }>();
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const text of String(chunk).split('\n').filter(Boolean)) {
        const line = JSON.parse(text) as LogLine;
        lines.push(line);
        for (const waiter of waiters) {
          if (!waiter.matches(line)) continue;
          waiters.delete(waiter);
          waiter.resolve(line);
        }
      }
      done();
    },
  });

  /**
   * The first line that matches, as soon as it is written: a log line may be written after the
   * response reached the client, so tests wait for the line itself rather than for a guessed delay.
   * The bound only turns a missing line into a clear failure (under jest's 5 s test timeout).
   */
  const waitForLine = (matches: (line: LogLine) => boolean, timeoutMs = 4_000): Promise<LogLine> => {
    const written = lines.find(matches);
    if (written) return Promise.resolve(written);
    return new Promise((resolve, reject) => {
      const waiter = {
        matches,
        resolve: (line: LogLine) => {
          clearTimeout(timer);
          resolve(line);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`no log line matched within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(waiter);
    });
  };

  return { stream, lines: () => lines, waitForLine };
}
