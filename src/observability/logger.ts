import pino, { type Logger } from 'pino';
import type { AppConfig } from '../config/app-config.js';
import { GatheredLines } from './gathered-lines.js';

/** The application's pino logger, for code that writes structured lines of its own (the error filter). */
export const APP_LOGGER = Symbol('APP_LOGGER');

/** Longest a gathered JSON line waits before it is written (LOG_BUFFER_BYTES). */
export const LOG_FLUSH_MS = 1000;

/** Log bytes that may wait for a slow reader of standard output; lines beyond are dropped. */
export const MAX_PENDING_LOG_BYTES = 16 * 1024 * 1024;

/**
 * The process's pino logger: JSON lines, or pretty lines in a terminal when pino-pretty is installed.
 * JSON lines are gathered up to `log.bufferBytes` before one write to standard output, so
 * a busy instance makes one write (and its log collector one read) per few dozen requests instead of
 * one per request. A timer writes what is gathered at least every LOG_FLUSH_MS, and the process's
 * `exit` writes the rest, after a shutdown, `process.exit` or an uncaught error alike.
 */
export function createLogger(config: AppConfig): Logger {
  const options = { level: config.log.level, base: { service: 'vpsapi' } };
  if (config.log.pretty) {
    try {
      return pino(options, pino.transport({ target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } }));
    } catch {
      // pino-pretty is a development dependency; production images log JSON.
    }
  }
  // Asynchronous: when standard output is a pipe its descriptor is non-blocking, and a synchronous
  // write to a full pipe (a log collector falling behind) made sonic-boom sleep the whole process
  // for 100 ms per attempt. Lines beyond MAX_PENDING_LOG_BYTES waiting for the pipe are dropped.
  const stdout = pino.destination({ dest: 1, sync: false, maxLength: MAX_PENDING_LOG_BYTES, contentMode: 'buffer' });
  // In buffer mode sonic-boom writes Buffers; its types name only strings.
  const gathered = new GatheredLines({ write: (bytes) => stdout.write(bytes as unknown as string) }, config.log.bufferBytes);
  if (config.log.bufferBytes > 0) setInterval(() => gathered.flush(), LOG_FLUSH_MS).unref();
  process.once('exit', () => {
    gathered.flush();
    try {
      stdout.flushSync();
    } catch {
      // Nothing more can be done for the log at exit.
    }
  });
  return pino(options, gathered);
}
