import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mcpSuite } from './support/mcp-tool-caller';
import { meetsAllFour, pricedPlanOf, transferTbOf } from './support/independent-figures';
import { rawUseCases } from './support/raw-data';
import { onReleaseDay } from './support/clock';

// The expectations below are worked out for the release day; ages are measured to the day of the answer.
onReleaseDay();

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/*
 * A spec is matched on all four of its parts, and an allowance the provider does not state is never
 * counted as meeting a need: the answer says which plans were passed over and why. The embedded data
 * has no plan still sold with such an allowance, so this runs on a copy where one UpCloud plan that
 * would be the backup-storage pick's cheapest fit says "Fair-use allowance" instead of its volume.
 */
describe('recommend_vps_for_workload with an allowance the provider does not state', () => {
  const backups = rawUseCases.useCases.find((u: Json) => u.slug === 'backup-storage');
  let changed: Json;
  const { call, data, app } = mcpSuite({
    editData: async (dir) => {
      const file = join(dir, 'providers.json');
      const providers = JSON.parse(await readFile(file, 'utf8'));
      const upcloud = providers.providers.find((p: Json) => p.id === 'upcloud');
      const fits = upcloud.plans
        .filter((plan: Json) => !pricedPlanOf(upcloud, plan).discontinued && meetsAllFour(plan, backups.minimumSpec))
        .sort((a: Json, b: Json) => a.price - b.price);
      expect(fits.length).toBeGreaterThan(1); // so the copy still has a pick that can be bought
      changed = fits[0];
      changed.bandwidth = 'Fair-use allowance';
      await writeFile(file, JSON.stringify(providers, null, 2));
    },
  });

  it('passes the plan over for a pick, names it in transferNote, and picks the next plan that meets all four parts', async () => {
    expect(backups.recommendedProviders.map((p: Json) => p.id)).toContain('upcloud');
    const result = data(await call('recommend_vps_for_workload', { workload: 'backup-storage' }));
    const pick = result.providers.find((p: Json) => p.id === 'upcloud');
    expect(pick.cheapestMatchingPlan.planName).not.toBe(changed.name);
    expect(transferTbOf(pick.cheapestMatchingPlan.bandwidth)).toBeGreaterThanOrEqual(backups.minimumSpec.bandwidthTb);
    expect(pick.transferNote).toContain('1 UpCloud plan');
    expect(pick.transferNote).toContain('"Fair-use allowance"');
    expect(pick.transferNote).toContain(`${backups.minimumSpec.bandwidthTb} TB`);
    // The other picks have no such plan, so carry no note.
    for (const other of result.providers.filter((p: Json) => p.id !== 'upcloud'))
      expect(other.transferNote).toBeUndefined();
  });

  it('says the same on the use-case page, where each fitting plan shows the traffic it was matched on', async () => {
    const pick = data(await call('recommend_vps_for_workload', { workload: 'backup-storage' })).providers.find(
      (p: Json) => p.id === 'upcloud',
    );
    const page = (await app().http.get('/use-cases/backup-storage.md').expect(200)).text;
    expect(page).toContain(pick.transferNote);
    const sentences = page.split('\n').filter((l: string) => l.startsWith('Cheapest fitting plan:'));
    expect(sentences.length).toBe(backups.recommendedProviders.length);
    for (const line of sentences) expect(line).toMatch(/, traffic .+\) at \d/);
  });

  it('leaves the plan out of find_vps_plans with a transfer need, counting it and saying why', async () => {
    const result = data(await call('find_vps_plans', { minTransferTb: 0.5, providers: ['upcloud'], limit: 50 }));
    expect(result.plans.map((p: Json) => p.planName)).not.toContain(changed.name);
    expect(result.leftOutTransferUnknown).toBe(1);
    expect(result.transferNote).toMatch(/^1 plan met every other filter/);
    const without = data(await call('find_vps_plans', { providers: ['upcloud'], limit: 50 }));
    expect(without.plans.map((p: Json) => p.planName)).toContain(changed.name);
    expect(without.leftOutTransferUnknown).toBeUndefined();
  });
});
