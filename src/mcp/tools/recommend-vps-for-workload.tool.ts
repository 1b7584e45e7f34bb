import { z } from 'zod';
import { MAX_QUERY_LENGTH } from '../../search/search-index.js';
import { MB_PER_VISIT } from '../../use-cases/workload-scale.js';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { structured, withDomainErrors } from '../tool-results.js';
import { cpuTypeSchema, figureInput, planPricingShape, planTextShape, priceAgeShape, specSchema } from './schemas.js';

const matchingPlanSchema = z.object({
  planName: z.string(),
  price: z.number(),
  currency: z.string(),
  ...planTextShape,
  cpuType: cpuTypeSchema,
  ...planPricingShape,
  ...priceAgeShape,
  normalizedPrice: z
    .number()
    .optional()
    .describe('With filters: the monthly price compared (at the location), in filters.currency.'),
  normalizedCurrency: z.string().optional(),
  regionalPriceFactor: z
    .number()
    .optional()
    .describe('With a location: the listed price times this is the price there.'),
  orderable: z
    .literal(false)
    .optional()
    .describe('false for a plan nobody can order (picked only with includeUnorderable).'),
  meets: z
    .enum(['recommended', 'minimum', 'scaled'])
    .describe(
      'The spec the plan meets on all four parts (vCPUs, RAM, disk, monthly transfer): "minimum" when no plan of the provider reaches the recommended one; "scaled" (with scale) the scaledSpec.',
    ),
});

export const recommendVpsForWorkloadTool = defineTool({
  name: 'recommend_vps_for_workload',
  title: 'Recommend a VPS for a workload',
  description:
    "Matches a workload (a use-case slug, or free text matched on the use cases' names, tags and descriptions; match.confidence 0-1: say so below 0.7; text naming none is refused with the closest) to its minimum and recommended specs, entry price and recommended providers, " +
    'each with its reason and cheapest no-commitment plan meeting the recommended spec (or the minimum, flagged) on vCPUs, RAM, disk and transfer, with reasonClaims, price basis, observedAt and stale (tell the user). ' +
    'budget, location and scale narrow the picks (noPlanNote when none fits), not startingAt. For exact resources use find_vps_plans. Next: estimate_monthly_cost on a pick.',
  inputSchema: {
    workload: z
      .string({
        error: 'Pass "workload": a use-case slug such as "wordpress" or a short description of what will run.',
      })
      .trim()
      .min(1, {
        error: 'Pass "workload": a use-case slug such as "wordpress" or a short description of what will run.',
      })
      .max(MAX_QUERY_LENGTH, { error: `Keep "workload" under ${MAX_QUERY_LENGTH} characters: a few words are enough.` })
      .describe('A use-case slug (e.g. "wordpress", "vpn", "ai-inference") or a plain description of the workload.'),
    budget: figureInput('budget', 'the currency a month', 20, 1_000_000).describe(
      'Highest monthly price, in `currency` (no commitment where sold so).',
    ),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, { error: 'currency must be a three-letter ISO 4217 code such as USD or EUR' })
      .optional()
      .describe('ISO 4217 code of budget and normalizedPrice (default USD).'),
    location: z
      .string()
      .max(64)
      .optional()
      .describe(
        'A data-centre city (as find_vps_plans matches it) or a country (code or name): only plans sold there, at the price there.',
      ),
    includeUnorderable: z
      .boolean()
      .optional()
      .describe('true: plans nobody can order (sold out, legacy) may be picked too, flagged orderable: false.'),
    scale: z
      .strictObject({ visitsPerMonth: z.number().int().positive().max(1e10) })
      .optional()
      .describe(
        `Sizes the spec: up to 50,000 visits a month the minimum, 500,000 the recommended, 2,000,000 twice its vCPUs and RAM, more 4 times; transfer ${MB_PER_VISIT} MB a visit.`,
      ),
  },
  outputSchema: z.object({
    useCase: z.object({ slug: z.string(), title: z.string(), url: z.string() }),
    matchedBy: z.enum(['slug', 'search']),
    match: z.object({
      kind: z
        .enum(['exact', 'alias', 'words', 'description'])
        .describe(
          'exact: slug or title; alias: the text has one of its names (e.g. "minecraft"); words: some words match its names.',
        ),
      confidence: z.number(),
      matchedUseCase: z.string(),
      matchedOn: z.array(z.string()).describe('The name or the words it was matched on.'),
    }),
    filters: z
      .object({
        budget: z.number().optional(),
        currency: z.string().optional(),
        location: z.string().optional(),
        country: z.string().optional(),
        visitsPerMonth: z.number().optional(),
        includeUnorderable: z.boolean().optional(),
      })
      .optional()
      .describe('What narrowed the picks, normalized.'),
    minimumSpec: specSchema,
    recommendedSpec: specSchema,
    startingAt: z
      .string()
      .describe(
        'The cheapest no-commitment monthly price in USD of a plan still sold that meets the minimum spec, e.g. "$3.54/mo"; fresh prices first, a stale one only when no fresh one meets the spec.',
      ),
    startingAtObservedAt: z.string().describe('The day the provider showed the price startingAt rests on.'),
    startingAtStale: z.boolean().describe('True when startingAt rests on a stale price.'),
    scaledSpec: specSchema.optional().describe('With scale: the spec the picks meet.'),
    scaleNote: z.string().optional(),
    providers: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        reason: z.string(),
        reasonClaims: z
          .object({ cpuType: z.enum(['shared', 'dedicated']).optional(), disk: z.string().optional() })
          .optional()
          .describe(
            'What the reason says its plans have (e.g. dedicated vCPUs, "NVMe" in the disk text); cheapestMatchingPlan has it.',
          ),
        url: z.string(),
        cheapestMatchingPlan: matchingPlanSchema.nullable(),
        transferNote: z
          .string()
          .optional()
          .describe('Plans passed over for a traffic allowance they do not state: pass it on.'),
        noPlanNote: z.string().optional(),
      }),
    ),
    datasetVersion: z
      .string()
      .describe(
        "The dataset version (release day, YYYY-MM-DD) the prices are from; each price's observedAt says when the provider showed it.",
      ),
    alternatives: z.array(z.object({ slug: z.string(), title: z.string() })),
  }),
  annotations: READ_ONLY,
  handler: ({ workload, ...narrowing }, { useCases }) =>
    withDomainErrors(() => structured({ ...useCases.recommend(workload, narrowing) })),
});
