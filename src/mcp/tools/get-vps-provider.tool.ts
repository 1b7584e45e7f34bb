import { z } from 'zod';
import { defineTool, READ_ONLY } from '../tool-definition.js';
import { structured, withDomainErrors } from '../tool-results.js';
import { providerSchema } from './schemas.js';

export const getVpsProviderTool = defineTool({
  name: 'get_vps_provider',
  title: 'Get one VPS provider',
  description:
    'Returns the full review record of one provider: summary, editorial verdict, overall and per-area ratings, pros and cons, pricing notes, every plan, uptime SLA, data-centre locations, features (included or paid), support, ' +
    'and links (review page, sign-up page, status page) with the sources of the figures. Use it after list_vps_providers or when the user names a provider. ' +
    'Each plan says the day the provider showed its price (observedAt) and whether it is stale, priceAge sums them up, and datasetVersion names the release the record is from. ' +
    'Ids are lowercase: hetzner, digitalocean, vultr, linode, ovhcloud, contabo, hostinger, upcloud.',
  inputSchema: {
    id: z
      .string({ error: 'Pass "id": a provider id such as "hetzner" (list_vps_providers lists them all).' })
      .min(1, { error: 'Pass "id": a provider id such as "hetzner" (list_vps_providers lists them all).' })
      .max(64)
      .describe('Provider id, lowercase, e.g. "hetzner" or "digitalocean".'),
  },
  outputSchema: z.object({
    provider: providerSchema,
    datasetVersion: z.string().describe('The dataset version (release day, YYYY-MM-DD) the record is from.'),
  }),
  annotations: READ_ONLY,
  handler: ({ id }, { providers }) =>
    withDomainErrors(
      () => {
        const { provider, version } = providers.get(id).value;
        return structured({ provider, datasetVersion: version });
      },
      {
        list: 'Call list_vps_providers to see them with their plans.',
      },
    ),
});
