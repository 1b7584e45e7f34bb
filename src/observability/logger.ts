import pino, { type Logger } from 'pino';
import type { AppConfig } from '../config/app-config.js';

/** The application's pino logger, for code that writes structured lines of its own (the error filter). */
export const APP_LOGGER = Symbol('APP_LOGGER');
/** The LogOutput of the application's logger, when it writes JSON lines to standard output. */
export const LOG_OUTPUT = Symbol('LOG_OUTPUT');

/** Longest a gathered JSON line waits before it is written (LOG_BUFFER_BYTES). */
const LOG_FLUSH_MS = 1000;

/** pino's destination for standard output, and how many bytes it dropped (log_dropped_bytes_total). */
export class LogOutput {
  dropped = 0;
  /** The reader went away (EPIPE): pino's destination discards every line from then on. */
  closed = false;

  constructor(readonly destination: ReturnType<typeof pino.destination>) {
    destination.on('drop', (data: string | Buffer) => (this.dropped += Buffer.byteLength(data)));
    // pino handles EPIPE itself (it stops writing); any other write error must not end the process.
    destination.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') this.closed = true;
    });
  }

  /** pino's streamWrite hook: a line written after the reader went away is counted as dropped. */
  readonly count = (line: string): string => {
    if (this.closed) this.dropped += Buffer.byteLength(line);
    return line;
  };
}

/**
 * The process's pino logger (main.ts): JSON lines, or pretty lines in a terminal when pino-pretty is
 * installed. JSON lines go to standard output through pino's asynchronous destination (sonic-boom):
 * gathered until more than `log.bufferBytes` wait (`minLength`), and at least every LOG_FLUSH_MS
 * (`periodicFlush`), then written off the event loop, so a busy instance makes one write per few dozen
 * requests and a slow reader never blocks it. Up to `log.maxPendingBytes` wait for a reader that
 * stalls (`maxLength`); lines beyond are dropped, and so is everything after the reader went away: both
 * are counted (LogOutput). The process's `exit` writes what is still gathered (`flushSync`).
 */
export function createLogger(config: AppConfig): { logger: Logger; output?: LogOutput } {
  const options = { level: config.log.level, base: BASE };
  if (config.log.pretty) {
    try {
      return {
        logger: pino(
          options,
          pino.transport({ target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } }),
        ),
      };
    } catch {
      // pino-pretty is a development dependency; production images log JSON.
    }
  }
  const bufferBytes = config.log.bufferBytes;
  const output = new LogOutput(
    pino.destination({
      dest: 1,
      sync: false,
      minLength: bufferBytes,
      // sonic-boom requires a single write to allow more than minLength.
      maxWrite: Math.max(16_384, 2 * bufferBytes),
      maxLength: config.log.maxPendingBytes,
      periodicFlush: bufferBytes > 0 ? LOG_FLUSH_MS : 0,
    }),
  );
  process.once('exit', () => {
    try {
      if (!output.closed) output.destination.flushSync();
    } catch {
      // Standard output failed as the process ends: those lines are lost.
    }
  });
  return { logger: pino({ ...options, hooks: { streamWrite: output.count } }, output.destination), output };
}

/** Every line carries the service's name. */
export const BASE = { service: 'vpsapi' };
