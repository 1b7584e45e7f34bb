import { z } from 'zod';
import { suggest } from '../../common/suggest.js';

/** Names callers use for an argument a tool spells otherwise: suggested when the guess is one of these. */
const ARGUMENT_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  region: ['location', 'country', 'datacenter'],
  city: ['location', 'datacenter'],
  datacentre: ['datacenter', 'location'],
  dc: ['datacenter', 'location'],
  zone: ['location', 'datacenter'],
  budget: ['maxMonthlyPrice', 'budget'],
  maxPrice: ['maxMonthlyPrice'],
  price: ['maxMonthlyPrice'],
  ram: ['minRamGb', 'ramGb'],
  memory: ['minRamGb', 'ramGb'],
  cpu: ['minVcpus', 'vcpus', 'cpuType'],
  cpus: ['minVcpus', 'vcpus'],
  disk: ['minStorageGb', 'storageGb'],
  storage: ['minStorageGb', 'storageGb', 'storageType'],
  provider: ['providerId', 'providers', 'id'],
  plan: ['planName'],
  format: ['responseFormat'],
};

/** For each unknown argument: the valid ones it was probably meant to be. */
function guesses(unknown: readonly string[], valid: readonly string[]): string[] {
  return unknown.flatMap((key) => {
    // Own keys only: a guess named "constructor" or "__proto__" must not read Object.prototype.
    const listed = [key, key.toLowerCase()].find((name) => Object.hasOwn(ARGUMENT_SYNONYMS, name));
    const synonyms = (listed ? ARGUMENT_SYNONYMS[listed] : []).filter((name) => valid.includes(name));
    const close = synonyms.length > 0 ? synonyms : suggest(key, valid);
    return close.length > 0 ? [`"${key}" -> ${close.map((c) => `"${c}"`).join(' or ')}`] : [];
  });
}

/**
 * A tool's input schema that refuses arguments it does not know, naming them, the valid ones and
 * the closest: `{minRam: 4}` must fail loudly, not return an unfiltered list. The SDK turns the
 * failure into its usual invalid-arguments tool error.
 */
export function strictInput(shape: z.ZodRawShape): z.ZodObject {
  const valid = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code !== 'unrecognized_keys') return undefined;
      const keys = issue.keys as string[];
      const hints = guesses(keys, valid);
      return (
        `Unknown argument${keys.length === 1 ? '' : 's'} ${keys.map((k) => `"${k.slice(0, 64)}"`).join(', ')}. ` +
        (valid.length > 0 ? `Valid arguments: ${valid.join(', ')}.` : 'This tool takes no arguments.') +
        (hints.length > 0 ? ` Did you mean ${hints.join('; ')}?` : '')
      );
    },
  });
}
