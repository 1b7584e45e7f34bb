import pino, { type Logger } from 'pino';
import type { AppConfig } from '../config/app-config.js';
import { DescriptorSink } from './descriptor-sink.js';
import { GatheredLines, type LineSink } from './gathered-lines.js';

/** The application's pino logger, for code that writes structured lines of its own (the error filter). */
export const APP_LOGGER = Symbol('APP_LOGGER');

/** Longest a gathered JSON line waits before it is written (LOG_BUFFER_BYTES). */
export const LOG_FLUSH_MS = 1000;

/** Log bytes that may wait for a slow reader of standard output; lines beyond are dropped. */
export const MAX_PENDING_LOG_BYTES = 16 * 1024 * 1024;

/** Longest the process's exit waits for a stalled reader of standard output to take the last lines. */
export const EXIT_FLUSH_MS = 1000;

/** Standard output, once a logger writes to it: one per process, whatever the number of loggers. */
let stdout: { sink: DescriptorSink; gathered: GatheredLines[] } | undefined;

/** Log bytes dropped since start: a reader of standard output that stalled, or a closed one. */
export function droppedLogBytes(): number {
  return stdout?.sink.dropped ?? 0;
}

/**
 * The process's pino logger: JSON lines, or pretty lines in a terminal when pino-pretty is installed.
 * JSON lines are gathered up to `log.bufferBytes` before one write to standard output, so
 * a busy instance makes one write (and its log collector one read) per few dozen requests instead of
 * one per request. A timer writes what is gathered at least every LOG_FLUSH_MS, and the process's
 * `exit` writes the rest, after a shutdown, `process.exit` or an uncaught error alike. The write
 * never blocks the process (DescriptorSink).
 */
export function createLogger(config: AppConfig): Logger {
  if (config.log.pretty) {
    try {
      return pino(optionsOf(config), pino.transport({ target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } }));
    } catch {
      // pino-pretty is a development dependency; production images log JSON.
    }
  }
  const out = standardOutput();
  const { logger, gathered } = jsonLogger(config, out.sink);
  out.gathered.push(gathered);
  if (config.log.bufferBytes > 0) setInterval(() => gathered.flush(), LOG_FLUSH_MS).unref();
  return logger;
}

/** The JSON logger createLogger makes, its lines gathered for `sink`. */
export function jsonLogger(config: AppConfig, sink: LineSink): { logger: Logger; gathered: GatheredLines } {
  const gathered = new GatheredLines(sink, config.log.bufferBytes);
  return { logger: pino(optionsOf(config), gathered), gathered };
}

/** Every line carries the service's name. */
const optionsOf = (config: AppConfig) => ({ level: config.log.level, base: { service: 'vpsapi' } });

function standardOutput(): NonNullable<typeof stdout> {
  if (stdout) return stdout;
  const out = { sink: DescriptorSink.of(1, MAX_PENDING_LOG_BYTES), gathered: [] as GatheredLines[] };
  process.once('exit', () => {
    for (const gathered of out.gathered) gathered.flush();
    out.sink.flushSync(EXIT_FLUSH_MS);
  });
  stdout = out;
  return out;
}
