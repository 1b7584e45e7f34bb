import pino, { type Logger } from 'pino';
import type { AppConfig } from '../config/app-config.js';
import { accessLine, accessMessage, accessObject, type AccessEntry } from './access-line.js';

/** The application's pino logger, for code that writes structured lines of its own (the error filter). */
export const APP_LOGGER = Symbol('APP_LOGGER');

/** Longest a gathered JSON line waits before it is written (LOG_BUFFER_BYTES). */
const LOG_FLUSH_MS = 1000;

/** pino's destination for standard output and what it dropped: one per process, whatever the number of loggers. */
let stdout: { destination: ReturnType<typeof pino.destination>; dropped: number; closed: boolean } | undefined;

/** Log bytes dropped since start: a reader of standard output that stalled, or a closed one. */
export function droppedLogBytes(): number {
  return stdout?.dropped ?? 0;
}

/**
 * The process's pino logger: JSON lines, or pretty lines in a terminal when pino-pretty is installed.
 * JSON lines go to standard output through pino's asynchronous destination (sonic-boom): gathered
 * until more than `log.bufferBytes` wait (`minLength`), and at least every LOG_FLUSH_MS
 * (`periodicFlush`), then written off the event loop, so a busy instance makes one write per few dozen
 * requests and a slow reader never blocks it. Up to `log.maxPendingBytes` wait for a reader that
 * stalls (`maxLength`); lines beyond are dropped, and so is everything after the reader went away
 * (pino stops writing on EPIPE): both are counted in `log_dropped_bytes_total`. The process's `exit`
 * writes what is still gathered (`flushSync`).
 */
export function createLogger(config: AppConfig): Logger {
  if (config.log.pretty) {
    try {
      return pino(optionsOf(config), pino.transport({ target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } }));
    } catch {
      // pino-pretty is a development dependency; production images log JSON.
    }
  }
  const out = standardOutput(config.log.bufferBytes, config.log.maxPendingBytes);
  const logger = pino(
    {
      ...optionsOf(config),
      hooks: {
        streamWrite: (line: string) => countIfDiscarded(out, line),
      },
    },
    out.destination,
  );
  jsonLoggers.set(logger, out);
  return logger;
}

/** Every line carries the service's name. */
const BASE = { service: 'vpsapi' };
const optionsOf = (config: AppConfig) => ({ level: config.log.level, base: BASE });

/** The loggers createLogger made for JSON lines on standard output, and their destination. */
const jsonLoggers = new WeakMap<Logger, NonNullable<typeof stdout>>();

/**
 * Writes info-level access lines for `logger`. For the process's JSON logger, each line is built in one
 * template (accessLine: the bytes pino writes for the same entry) and handed to the same destination,
 * counted as dropped when the reader has gone, as pino's own lines are (countIfDiscarded). Any other
 * logger (pretty output, a test's stream) gets `logger.info`.
 */
export function accessLogWriter(logger: Logger): (entry: AccessEntry) => void {
  const out = jsonLoggers.get(logger);
  if (!out || !logger.isLevelEnabled('info')) return (e) => logger.info(accessObject(e), accessMessage(e));
  const bindings = JSON.stringify(BASE).slice(1, -1);
  return (e) => {
    out.destination.write(countIfDiscarded(out, accessLine(e, Date.now(), bindings)));
  };
}

/** After EPIPE pino's destination discards every line (its write becomes a no-op): counts the line as dropped. */
function countIfDiscarded(out: NonNullable<typeof stdout>, line: string): string {
  if (out.closed) out.dropped += Buffer.byteLength(line);
  return line;
}

function standardOutput(bufferBytes: number, maxPendingBytes: number): NonNullable<typeof stdout> {
  if (stdout) return stdout;
  const destination = pino.destination({
    dest: 1,
    sync: false,
    minLength: bufferBytes,
    // sonic-boom requires a single write to allow more than minLength.
    maxWrite: Math.max(16_384, 2 * bufferBytes),
    maxLength: maxPendingBytes,
    periodicFlush: bufferBytes > 0 ? LOG_FLUSH_MS : 0,
  });
  const out = { destination, dropped: 0, closed: false };
  destination.on('drop', (data: string | Buffer) => (out.dropped += Buffer.byteLength(data)));
  // pino handles EPIPE itself (it stops writing); any other write error must not end the process.
  destination.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') out.closed = true;
  });
  process.once('exit', () => {
    try {
      if (!out.closed) destination.flushSync();
    } catch {
      // Standard output failed as the process ends: those lines are lost.
    }
  });
  stdout = out;
  return out;
}
