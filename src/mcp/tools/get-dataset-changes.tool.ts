import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { ANSWER_SIZE_NOTE, listingOutputShape, responseFormatInput, structuredWithin } from '../response-format.js';
import { withDomainErrors } from '../tool-results.js';
import { NotFoundError } from '../../common/errors/domain-errors.js';
import type { DatasetRelease } from '../../dataset/dto/changelog.dto.js';
import type { ReleaseSummary } from '../../changes/release-summary.js';

// Each is used twice in the output schema: an id publishes it once, under $defs.
const plan = z
  .object({ providerId: z.string(), planName: z.string(), price: z.number(), currency: z.string() })
  .meta({ id: 'ReleasedPlan' });
const guide = z
  .object({
    slug: z.string(),
    title: z.string(),
    date: z.string().describe("The guide's updated (or published) date."),
  })
  .meta({ id: 'ReleasedGuide' });

const count = z.number().int();
const providerCounts = z.object({
  providerId: z.string(),
  plansRepriced: count,
  pricesRaised: count.describe('Repricings to a higher price in the same currency.'),
  pricesLowered: count.describe('Repricings to a lower price in the same currency.'),
  currencyChanged: count.describe('Repricings into another currency (neither raised nor lowered can be said).'),
  plansAdded: count,
  plansRemoved: count,
  providerFacts: count.describe('Provider fields (other than plans) that changed.'),
});

export const getDatasetChangesTool = defineTool({
  name: 'get_dataset_changes',
  title: 'Get dataset changes',
  description:
    'Dataset releases, newest first, with what changed since the one before: by default counts per provider (repricings up and down, plans added and removed, facts) and of guides; "detailed" every change with old and new values. ' +
    'since: releases after that version; providerId: one provider, no guides. For "what changed since X" or "did Hetzner raise its prices". ' +
    ANSWER_SIZE_NOTE.replace('items', 'releases (the oldest first)'),
  inputSchema: {
    since: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'since must be a dataset version written YYYY-MM-DD, e.g. 2026-11-26' })
      .optional()
      .describe('A dataset version (YYYY-MM-DD): only releases after it are returned. Omit it for every release.'),
    providerId: z.string().max(64).optional().describe('A provider id (any case): only its changes, and no guides.'),
    responseFormat: responseFormatInput(
      'per release the counts of changes per provider, repricings first, and of guides',
    ),
  },
  outputSchema: z.object({
    currentVersion: z.string().describe('The dataset version being served.'),
    releases: z.array(
      z.object({
        version: z.string().describe('Dataset version of the release.'),
        date: z.string().describe('Day the release was made.'),
        summary: z.string().describe('"initial release", or counts of what changed.'),
        providersAdded: z.array(z.string()).optional().describe('Concise only.'),
        providersRemoved: z.array(z.string()).optional().describe('Concise only.'),
        byProvider: z
          .array(providerCounts)
          .optional()
          .describe('Concise only: providers with any change, most repricings first.'),
        guidesAdded: count.optional().describe('Concise only.'),
        guidesUpdated: count.optional().describe('Concise only.'),
        changes: z
          .object({
            providersAdded: z.array(z.string()),
            providersRemoved: z.array(z.string()),
            plansAdded: z.array(plan),
            plansRemoved: z.array(plan).describe('With their last price.'),
            plansRepriced: z.array(
              z.object({
                providerId: z.string(),
                planName: z.string(),
                oldPrice: z.number(),
                newPrice: z.number(),
                oldCurrency: z.string(),
                currency: z.string(),
              }),
            ),
            providerFacts: z.array(
              z.object({ providerId: z.string(), field: z.string(), oldValue: z.unknown(), newValue: z.unknown() }),
            ),
            guidesAdded: z.array(guide),
            guidesUpdated: z.array(guide),
          })
          .optional()
          .describe('Detailed only: every change of the release.'),
      }),
    ),
    providerId: z.string().optional().describe('The provider the changes were narrowed to.'),
    ...listingOutputShape,
  }),
  annotations: READ_ONLY,
  handler: ({ since, providerId, responseFormat = 'concise' }, { changes, providers }) =>
    withDomainErrors(
      () => {
        if (providerId !== undefined && !providers.ids().includes(providerId))
          throw new NotFoundError('provider', providerId, providers.ids());
        const releases =
          responseFormat === 'detailed'
            ? changes.since(since).map((release) => (providerId ? releaseOf(release, providerId) : release))
            : changes.summariesSince(since).map((release) => (providerId ? summaryOf(release, providerId) : release));
        return structuredWithin(
          { currentVersion: changes.currentVersion(), releases, ...(providerId ? { providerId } : {}), responseFormat },
          'releases',
          responseFormat,
          'fewer releases (since) or one provider (providerId)',
        );
      },
      { list: 'Call describe_filters for the provider ids.' },
    ),
});

/** A release with only one provider's changes: its plans and facts, whether it was added or removed; no guides. */
function releaseOf(release: DatasetRelease, providerId: string): DatasetRelease {
  const { changes } = release;
  const mine = <T extends { providerId: string }>(items: readonly T[]) =>
    items.filter((i) => i.providerId === providerId);
  return {
    ...release,
    changes: {
      ...changes,
      providersAdded: changes.providersAdded.filter((id) => id === providerId),
      providersRemoved: changes.providersRemoved.filter((id) => id === providerId),
      plansAdded: mine(changes.plansAdded),
      plansRemoved: mine(changes.plansRemoved),
      plansRepriced: mine(changes.plansRepriced),
      providerFacts: mine(changes.providerFacts),
      guidesAdded: [],
      guidesUpdated: [],
    },
  };
}

/** A release summary with only one provider's counts; no guides. */
function summaryOf(release: ReleaseSummary, providerId: string): ReleaseSummary {
  return {
    ...release,
    providersAdded: release.providersAdded.filter((id) => id === providerId),
    providersRemoved: release.providersRemoved.filter((id) => id === providerId),
    byProvider: release.byProvider.filter((counts) => counts.providerId === providerId),
    guidesAdded: 0,
    guidesUpdated: 0,
  };
}
