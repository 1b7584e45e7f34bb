import { resolve } from 'node:path';

export type AppConfigValues = Omit<AppConfig, 'url'>;

/** The validated, typed configuration. Built once by `loadConfig`; injected as a class token. */
export class AppConfig {
  readonly port: number;
  readonly host: string;
  /** Origin for absolute URLs, without a trailing slash. */
  readonly publicBaseUrl: string;
  readonly dataDir: string;
  readonly rateLimit: { readonly requests: number; readonly windowSeconds: number };

  constructor(values: AppConfigValues) {
    Object.assign(this, values);
    Object.freeze(this);
  }

  /** The absolute URL of a path on this deployment. */
  url(path: string): string {
    return this.publicBaseUrl + path;
  }
}

/** The embedded dataset shipped in the repository, relative to the working directory. */
export const EMBEDDED_DATA_DIR = resolve('data');
