import { Writable } from 'node:stream';

/** A log destination that keeps every JSON line the app writes, for tests to read back. */
export function logSink() {
  const lines: Record<string, any>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { stream, lines: () => lines };
}
