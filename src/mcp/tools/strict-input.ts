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

/** Arguments whose values are lowercase ids (provider ids, slugs): a caller's "DigitalOcean" means "digitalocean". */
const ID_ARGUMENTS = new Set(['id', 'providerId', 'providers', 'slug']);

/**
 * The arguments with each name spelled as the tool spells it when it differs only in case
 * (`Budget` -> `budget`), and id values in lowercase. A name that matches no argument, or one the
 * caller also passed as spelled, is left for the strict check to refuse.
 */
export function foldArgumentCase(args: unknown, valid: readonly string[]): unknown {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return args;
  const byLowercase = new Map(valid.map((name) => [name.toLowerCase(), name]));
  // Built from entries, so a key such as "__proto__" stays an own (unknown, refused) argument.
  return Object.fromEntries(
    Object.entries(args).map(([key, value]) => {
      const name = valid.includes(key) ? key : (byLowercase.get(key.toLowerCase()) ?? key);
      const target = name !== key && Object.hasOwn(args, name) ? key : name;
      return [target, ID_ARGUMENTS.has(target) && valid.includes(target) ? lowercaseIds(value) : value];
    }),
  );
}

const lowercaseIds = (value: unknown): unknown =>
  typeof value === 'string'
    ? value.toLowerCase()
    : Array.isArray(value)
      ? value.map((v) => (typeof v === 'string' ? v.toLowerCase() : v))
      : value;

/**
 * A tool's input schema that refuses arguments it does not know, naming them, the valid ones and
 * the closest: `{minRam: 4}` must fail loudly, not return an unfiltered list. Names match in any
 * case and ids are read in lowercase first (foldArgumentCase). The SDK turns a failure into its usual
 * invalid-arguments tool error.
 */
export function strictInput(shape: z.ZodRawShape) {
  const valid = Object.keys(shape);
  return z.preprocess((args) => foldArgumentCase(args, valid), strictObject(shape, valid));
}

function strictObject(shape: z.ZodRawShape, valid: readonly string[]): z.ZodObject {
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
