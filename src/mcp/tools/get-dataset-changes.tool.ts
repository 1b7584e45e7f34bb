import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { structured, withDomainErrors } from '../tool-results.js';

const plan = z.object({ providerId: z.string(), planName: z.string(), price: z.number(), currency: z.string() });
const guide = z.object({ slug: z.string(), title: z.string(), date: z.string().describe('The guide\'s updated (or published) date.') });

export const getDatasetChangesTool = defineTool({
  name: 'get_dataset_changes',
  title: 'Get dataset changes',
  description:
    'Lists the releases of the dataset, newest first, each with what changed since the release before it: plans added, removed or repriced (with the old and the new monthly price), provider facts that changed (field, old and new value), and guides added or updated. ' +
    'Use it to answer "what changed since version X", "did Hetzner raise its prices", or to check whether data you saw earlier is still current; pass since with the version you know to get only the releases after it. ' +
    'The first release is the initial one and lists every plan as added. Prices are monthly, excluding VAT, in the currency each plan is billed in.',
  inputSchema: {
    since: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'since must be a dataset version written YYYY-MM-DD, e.g. 2026-11-26' })
      .optional()
      .describe('A dataset version (YYYY-MM-DD, as in the version field of every answer): only releases after it are returned. Omit it for every release.'),
  },
  outputSchema: z.object({
    currentVersion: z.string().describe('The dataset version being served.'),
    releases: z.array(
      z.object({
        version: z.string().describe('Dataset version of the release.'),
        date: z.string().describe('Day the release was made.'),
        summary: z.string().describe('"initial release", or counts of what changed.'),
        changes: z.object({
          providersAdded: z.array(z.string()),
          providersRemoved: z.array(z.string()),
          plansAdded: z.array(plan),
          plansRemoved: z.array(plan).describe('With their last price.'),
          plansRepriced: z.array(
            z.object({ providerId: z.string(), planName: z.string(), oldPrice: z.number(), newPrice: z.number(), oldCurrency: z.string(), currency: z.string() }),
          ),
          providerFacts: z.array(z.object({ providerId: z.string(), field: z.string(), oldValue: z.unknown(), newValue: z.unknown() })),
          guidesAdded: z.array(guide),
          guidesUpdated: z.array(guide),
        }),
      }),
    ),
  }),
  annotations: READ_ONLY,
  handler: ({ since }, { changes }) =>
    withDomainErrors(() => structured({ currentVersion: changes.currentVersion(), releases: [...changes.since(since)] })),
});
