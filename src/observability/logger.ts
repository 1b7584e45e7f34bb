import pino, { type Logger } from 'pino';
import type { AppConfig } from '../config/app-config.js';

/** The application's pino logger, for code that writes structured lines of its own (the error filter). */
export const APP_LOGGER = Symbol('APP_LOGGER');

/** The process's pino logger: JSON lines, or pretty lines in a terminal when pino-pretty is installed. */
export function createLogger(config: AppConfig): Logger {
  const options = { level: config.log.level, base: { service: 'vpsapi' } };
  if (config.log.pretty) {
    try {
      return pino(options, pino.transport({ target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } }));
    } catch {
      // pino-pretty is a development dependency; production images log JSON.
    }
  }
  return pino(options);
}

