import { NotFoundError } from '../common/errors/domain-errors.js';
import { suggest } from '../common/suggest.js';

/**
 * A provider id as the dataset spells it: matched in any case, as plan names are ("DigitalOcean" is
 * digitalocean). Throws NotFoundError with every valid id and the closest ("hetzner-cloud" -> hetzner).
 */
export function resolveProviderId(input: string, ids: readonly string[]): string {
  const wanted = input.trim().toLowerCase();
  const id = ids.find((x) => x.toLowerCase() === wanted);
  if (id) return id;
  throw new NotFoundError('provider', input, ids, suggest(input, ids));
}
