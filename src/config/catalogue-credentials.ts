/**
 * The provider tokens the price refresher may use, read from the environment. Only the refresher
 * (`npm run data:refresh`, the CronJob) reads them; the service itself never calls a provider and
 * needs none. Each is optional: a provider whose token is absent is skipped.
 */
export const CATALOGUE_CREDENTIALS = [
  'HCLOUD_TOKEN',
  'DIGITALOCEAN_TOKEN',
  'UPCLOUD_USERNAME',
  'UPCLOUD_PASSWORD',
  'HOSTINGER_API_TOKEN',
] as const;

/** The catalogue tokens that are set, by variable name. */
export function catalogueCredentials(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(CATALOGUE_CREDENTIALS.flatMap((name) => (env[name] ? [[name, env[name]!]] : [])));
}
