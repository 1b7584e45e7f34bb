import { z } from 'zod';
import { MAX_QUERY_LENGTH } from '../../search/search-index.js';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { structured, withDomainErrors } from '../tool-results.js';
import { cpuTypeSchema, planPricingShape, planTextShape, priceAgeShape, specSchema } from './schemas.js';

const matchingPlanSchema = z.object({
  planName: z.string(),
  price: z.number(),
  currency: z.string(),
  ...planTextShape,
  cpuType: cpuTypeSchema,
  ...planPricingShape,
  ...priceAgeShape,
  meets: z
    .enum(['recommended', 'minimum'])
    .describe('Which spec the plan meets on all four parts (vCPUs, RAM, disk and monthly transfer); "minimum" when no plan of the provider reaches the recommended spec.'),
});

export const recommendVpsForWorkloadTool = defineTool({
  name: 'recommend_vps_for_workload',
  title: 'Recommend a VPS for a workload',
  description:
    'Matches a workload to one of the dataset\'s use cases (WordPress, game server, VPN, database, Docker host, CI runner, mail server, AI inference, ...) and answers with its minimum and recommended specs, ' +
    'the entry price with no commitment, and the providers we recommend for it, each with the reason and its cheapest plan (by no-commitment price) that meets the recommended spec (or the minimum spec, flagged), with its cpuType and how that price is paid; where the reason says dedicated or shared vCPUs or a disk technology (reasonClaims), the plan has it. ' +
    'A plan meets a spec only on all four parts: vCPUs, RAM, disk and monthly transfer (a stated volume at least the spec\'s, or unmetered traffic; an allowance the provider does not state is not counted, and transferNote says so). ' +
    'Every price says when the provider showed it (observedAt, startingAtObservedAt) and whether it is stale, and datasetVersion names the release; plans with fresh prices are picked before stale ones, and plans of lines no longer sold never. Tell the user when a price is stale. ' +
    'Pass a use-case slug such as "game-server", or describe the workload in plain words ("minecraft server for ten friends"); free text is matched by search, and other close use cases are listed as alternatives. ' +
    'When to use: the user describes what will run; use find_vps_plans instead when the user gives exact resources, and describe_filters for the valid use-case slugs. ' +
    'Next: estimate_monthly_cost with a pick\'s id as providerId and its cheapestMatchingPlan.planName for the real monthly bill (IPv4, backups, traffic, VAT), and find_equivalent_plans for the same plan cheaper elsewhere.',
  inputSchema: {
    workload: z
      .string({ error: 'Pass "workload": a use-case slug such as "wordpress" or a short description of what will run.' })
      .trim()
      .min(1, { error: 'Pass "workload": a use-case slug such as "wordpress" or a short description of what will run.' })
      .max(MAX_QUERY_LENGTH, { error: `Keep "workload" under ${MAX_QUERY_LENGTH} characters: a few words are enough.` })
      .describe('A use-case slug (e.g. "wordpress", "vpn", "ai-inference") or a plain description of the workload.'),
  },
  outputSchema: z.object({
    useCase: z.object({ slug: z.string(), title: z.string(), url: z.string() }),
    matchedBy: z.enum(['slug', 'search']),
    minimumSpec: specSchema,
    recommendedSpec: specSchema,
    startingAt: z.string().describe('The cheapest no-commitment monthly price in USD of a plan still sold that meets the minimum spec, e.g. "$3.54/mo"; fresh prices first, a stale one only when no fresh one meets the spec.'),
    startingAtObservedAt: z.string().describe('The day the provider showed the price startingAt rests on.'),
    startingAtStale: z.boolean().describe('True when startingAt rests on a stale price.'),
    providers: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        reason: z.string(),
        reasonClaims: z
          .object({ cpuType: z.enum(['shared', 'dedicated']).optional(), disk: z.string().optional().describe('A word the plan\'s disk text has, e.g. "NVMe".') })
          .optional()
          .describe('Only when the reason says what its plans have (shared or dedicated vCPUs, a disk technology): cheapestMatchingPlan is one that has it.'),
        url: z.string(),
        cheapestMatchingPlan: matchingPlanSchema.nullable(),
        transferNote: z
          .string()
          .optional()
          .describe('Only when some of the provider\'s plans have the vCPUs, RAM and disk but state no traffic allowance, so were not counted as meeting the spec: pass it on.'),
      }),
    ),
    datasetVersion: z.string().describe('The dataset version (release day, YYYY-MM-DD) the prices are from; each price\'s observedAt says when the provider showed it.'),
    alternatives: z.array(z.object({ slug: z.string(), title: z.string() })),
  }),
  annotations: READ_ONLY,
  handler: ({ workload }, { useCases }) => withDomainErrors(() => structured({ ...useCases.recommend(workload) })),
});
