import type { CatalogueAdapter } from '../catalogue';
import { readCatalogues } from './read-catalogues';

/** An adapter that must never be called: the run has to stop before it reaches the network. */
const needsToken = (): CatalogueAdapter => ({
  providerId: 'acme',
  baseUrl: 'https://api.acme.invalid',
  credentials: ['ACME_TOKEN'],
  lines: ['std'],
  regions: () => Promise.reject(new Error('called without a token')),
  plans: () => Promise.reject(new Error('called without a token')),
  addOns: () => Promise.reject(new Error('called without a token')),
});

describe(readCatalogues.name, () => {
  it('skips a provider whose token is absent with a line naming the variable, and calls nothing', async () => {
    const lines: string[] = [];
    const outcomes = await readCatalogues([needsToken()], { env: {}, today: '2026-11-27', log: (l) => lines.push(l) });
    expect(outcomes).toEqual([
      { providerId: 'acme', status: 'skipped', reason: expect.stringContaining('ACME_TOKEN not set') },
    ]);
    expect(lines).toEqual([expect.stringMatching(/^acme: skipped: ACME_TOKEN not set/)]);
  });

  it('reports a provider whose read fails as failed, and reads the next one', async () => {
    const failing = { ...needsToken(), credentials: [] as string[], regions: () => Promise.reject(new Error('boom')) };
    const fine = {
      ...needsToken(),
      providerId: 'fine',
      credentials: [] as string[],
      regions: async () => [],
      plans: async () => [],
      addOns: async () => ({}),
    };
    const outcomes = await readCatalogues([failing, fine], { env: {}, today: '2026-11-27', log: () => undefined });
    expect(outcomes[0]).toEqual({ providerId: 'acme', status: 'failed', reason: 'Error: boom' });
    // An adapter that made no request has no endpoint to date its prices by: that too is a failure, never a guess.
    expect(outcomes[1].status).toBe('failed');
  });
});
