import { SUPPORTED_PROTOCOL_VERSIONS, type CacheHint } from '@modelcontextprotocol/server';
import { CACHE_CONTROL } from '../common/http/cache-policy.js';

/** How the server introduces itself in `initialize` and in its server card. */
export const SERVER_INFO = {
  name: 'vpsapi',
  title: 'VPS provider comparison',
  version: '1.0.0',
} as const;

/**
 * The protocol revision of the 2026 era this server speaks (server/discover, a `_meta` envelope per
 * request), besides the 2025-era versions the SDK negotiates at initialize.
 */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/**
 * Every protocol version this server speaks, newest first: the 2026 era's revision, then the
 * 2025-era versions the SDK negotiates at initialize. The server card and server/discover list it.
 */
export const PROTOCOL_VERSIONS: readonly string[] = [MODERN_PROTOCOL_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS];

/**
 * How long a client or a shared cache may keep the lists (tools, prompts, resources, templates), a
 * resource and server/discover on the 2026-07-28 revision (`ttlMs`, `cacheScope`). They are public
 * and change only with a dataset release, so they are cached as long as the HTTP API lets any cache
 * keep a document (`Cache-Control` max-age): a release, or a reload of the data, reaches clients
 * within that time.
 */
export const LIST_CACHE_HINT: CacheHint = { ttlMs: maxAgeSeconds(CACHE_CONTROL) * 1000, cacheScope: 'public' };

function maxAgeSeconds(cacheControl: string): number {
  const seconds = /max-age=(\d+)/.exec(cacheControl)?.[1];
  if (seconds === undefined) throw new Error(`No max-age in Cache-Control "${cacheControl}"`);
  return Number(seconds);
}

export const SERVER_DESCRIPTION =
  'Read-only data on eight reviewed VPS hosting providers (ratings, plans, prices, locations), a library of VPS guides, and workload sizing with provider picks.';

/** Told to the agent at initialize: which tool to use when. */
export const SERVER_INSTRUCTIONS = [
  'This server answers questions about choosing and running a VPS, from a reviewed dataset of eight providers (hetzner, digitalocean, vultr, linode, ovhcloud, contabo, hostinger, upcloud).',
  '- Overview or side-by-side comparison of providers, uptime SLA and support included ("which has the best SLA"): list_vps_providers (sortBy rating, price or name).',
  '- One provider in depth (verdict, pros and cons, plan lines, links; every plan with responseFormat "detailed"): get_vps_provider with its id.',
  '- "Cheapest server with at least N GB RAM / disk / vCPUs, under a budget, in a city or country": find_vps_plans; prices are compared in one currency with dated exchange rates; an empty answer lists the closest plans and what each misses.',
  '- A workload described in words ("WordPress blog", "Minecraft for ten friends", "private VPN"): recommend_vps_for_workload, then estimate_monthly_cost on its picks.',
  '- How-tos, comparisons and reviews: search_guides, then get_guide with a slug to read one (in chunks).',
  '- What a plan will really cost per month and over months (IPv4, backups, traffic, VAT or sales tax, promotional price then renewal): estimate_monthly_cost; unknown figures are flagged, never guessed.',
  '- "The same as my plan, for less": find_equivalent_plans with a provider and plan name, then estimate_monthly_cost on a candidate.',
  '- Valid provider ids, cities, countries, currencies, slugs and ranges: describe_filters; call it first when unsure what to pass.',
  '- The whole choice, from workload, budget, country and traffic to a short list with bills: the choose_a_vps prompt.',
  '- list_vps_providers answers concisely by default, and so do get_vps_provider, find_vps_plans, search_guides and get_dataset_changes: pass responseFormat "detailed" for every field (every plan of every provider, the full provider record, every change).',
  '- What changed between dataset releases (repricings, plans added or removed, provider facts, guides): get_dataset_changes, optionally since a version; it answers with counts per provider by default, and every change with responseFormat "detailed".',
  'Guides are also resources (guide://{slug}, markdown) and providers too (provider://{id}, JSON). Prices are monthly and exclude VAT.',
].join('\n');
