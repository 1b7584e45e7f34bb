import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { catalogueAdapters } from '../src/cli/catalogues/catalogue-registry';
import { refreshedProvider } from '../src/cli/catalogues/refresh/plan-records';
import { readCatalogues } from '../src/cli/catalogues/refresh/read-catalogues';
import { startReplayServer } from '../src/cli/catalogues/replay-server';
import { loadDataset } from '../src/dataset/dataset-loader';
import { run } from './support/processes';
import { DATA_DIR } from './support/raw-data';
import { scaled } from './support/time';

/*
 * `npm run data:refresh` over recorded catalogue answers, through the compiled CLI (what operators and
 * the CronJob run): the committed plans are exactly what the pipeline makes of the recordings, and an
 * implausible, corrupted or shrunken catalogue stops the run with nothing written.
 */

const FIXTURES = resolve('test/fixtures/catalogues');
const CLI = resolve('dist/cli/catalogues/refresh/refresh-cli.js');
const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));
const writeJson = (path: string, value: unknown) => writeFile(path, `${JSON.stringify(value, null, 2)}\n`);

async function copyOf(dir: string, prefix: string): Promise<string> {
  const target = await mkdtemp(join(tmpdir(), prefix));
  await cp(dir, target, { recursive: true });
  return target;
}

/** Every file of a directory with its content hash: what "nothing was written" compares. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
  return Object.fromEntries(
    await Promise.all(
      files.map(async (f) => [
        f.slice(dir.length),
        createHash('sha256')
          .update(await readFile(f))
          .digest('hex'),
      ]),
    ),
  );
}

jest.setTimeout(scaled(60_000));

describe('data:refresh', () => {
  const temps: string[] = [];
  let version: string;
  let next: string;
  const temp = async (dir: string, prefix: string) => {
    const made = await copyOf(dir, prefix);
    temps.push(made);
    return made;
  };
  const refresh = (data: string, from: string, ...extra: string[]) =>
    run(
      'node',
      [
        CLI,
        '--data',
        data,
        '--from',
        from,
        '--date',
        next,
        '--review',
        join(data, '..', `${data.split('/').pop()}-review.md`),
        ...extra,
      ],
      {},
      scaled(60_000),
    );

  beforeAll(async () => {
    version = (await readJson(join(DATA_DIR, 'meta.json'))).version;
    next = new Date(Date.parse(version) + 86_400_000).toISOString().slice(0, 10);
  });
  afterAll(async () => {
    await Promise.all(temps.map((t) => rm(t, { recursive: true, force: true })));
    await Promise.all(temps.map((t) => rm(`${t}-review.md`, { force: true })));
  });

  it('reproduces every committed catalogue-derived provider record exactly from the recorded answers', async () => {
    const committed = (await readJson(join(DATA_DIR, 'providers.json'))).providers;
    const adapters = catalogueAdapters();
    const replay = await startReplayServer(
      FIXTURES,
      adapters.map((a) => a.providerId),
    );
    try {
      const outcomes = await readCatalogues(adapters, { replay, env: {}, today: next, log: () => undefined });
      const read = outcomes.filter((o) => o.status === 'read');
      // Every provider with a recording is read, and the others are skipped, not failed.
      expect(outcomes.filter((o) => o.status === 'failed')).toEqual([]);
      expect(read.map((o) => o.providerId).sort()).toEqual(['digitalocean', 'linode', 'ovhcloud', 'vultr']);
      for (const outcome of read) {
        if (outcome.status !== 'read') continue;
        const adapter = adapters.find((a) => a.providerId === outcome.providerId)!;
        const record = committed.find((p: { id: string }) => p.id === outcome.providerId);
        expect(refreshedProvider(record, outcome.reading, adapter, outcome.provenance)).toEqual(record);
        // Each plan of a managed line carries the copy's date and the provider's own id of the size.
        for (const plan of record.plans.filter((p: { line: string }) => adapter.lines.includes(p.line))) {
          expect(plan).toMatchObject({ observedAt: outcome.provenance.observedAt, providerPlanId: expect.any(String) });
        }
        for (const line of record.planLines.filter((l: { id: string }) => adapter.lines.includes(l.id))) {
          expect(line.source).toEqual(outcome.provenance.source);
          expect(line.source).toMatchObject({ method: 'copy', copyOf: expect.stringMatching(/^https:\/\//) });
        }
      }
    } finally {
      await replay.close();
    }
  });

  it('finds no change against the committed dataset and writes nothing', async () => {
    const data = await temp(DATA_DIR, 'refresh-same-');
    const before = await snapshot(data);
    const result = await refresh(data, FIXTURES);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const id of ['digitalocean', 'vultr', 'linode', 'ovhcloud'])
      expect(result.stdout).toContain(`${id}: no change`);
    expect(result.stdout).toMatch(/hetzner: skipped: no recorded answers/);
    expect(result.stdout).toContain('no change: the catalogues read match the dataset; nothing written');
    // Every provider of the dataset has its line, the one without a catalogue too, and no line comes twice.
    const lines = result.stdout.trim().split('\n');
    for (const provider of (await readJson(join(data, 'providers.json'))).providers) {
      expect(
        lines.some((l: string) => new RegExp(`^${provider.id}: (\\d+ plans read|skipped|editorial)`).test(l)),
      ).toBe(true);
    }
    expect(lines).toContain('contabo: editorial, no catalogue to read (its prices stay as the editors wrote them)');
    expect(lines.filter((l: string, i: number) => lines.indexOf(l) !== i)).toEqual([]);
    expect(await snapshot(data)).toEqual(before);
  });

  it('refuses a --date that is not a real day, before it reads anything', async () => {
    const data = await temp(DATA_DIR, 'refresh-date-');
    const before = await snapshot(data);
    // The last --date wins: the helper's own comes first.
    const result = await refresh(data, FIXTURES, '--date', '2026-02-30', '--write');
    expect([result.code, result.stdout]).toEqual([1, '']);
    expect(result.stderr).toContain('--date must be a real date written YYYY-MM-DD (got "2026-02-30")');
    expect(await snapshot(data)).toEqual(before);
  });

  describe('with an altered recording', () => {
    let fixtures: string;
    let plans: any;
    const vultrPlans = () => join(fixtures, 'vultr', 'v2-plans.json');
    /** A new price for a size, São Paulo's included (it stays 50% more): a price change as Vultr makes one. */
    const reprice = (plan: any, price: number) => {
      plan.location_cost.sao.monthly_cost = Number(
        ((plan.location_cost.sao.monthly_cost * price) / plan.monthly_cost).toFixed(2),
      );
      plan.monthly_cost = price;
    };
    beforeEach(async () => {
      fixtures = await temp(FIXTURES, 'refresh-fixtures-');
      plans = await readJson(vultrPlans());
    });

    it('refuses a price that triples, names it in the review and writes nothing; accepted, it releases it', async () => {
      const data = await temp(DATA_DIR, 'refresh-x3-');
      const target = plans.plans.find((p: any) => p.id === 'vc2-1c-1gb');
      const oldPrice = target.monthly_cost;
      reprice(target, oldPrice * 3);
      await writeJson(vultrPlans(), plans);
      const before = await snapshot(data);

      const refused = await refresh(data, fixtures);
      expect(refused.code).toBe(2);
      expect(refused.stdout).toContain('REFUSED by the plausibility gate: 1 case');
      expect(refused.stdout).toContain(
        `vultr:vc2-1c-1gb: Regular Performance 1 GB: price ${oldPrice} -> ${oldPrice * 3} USD (x3.00`,
      );
      const review = await readFile(`${data}-review.md`, 'utf8');
      expect(review).toContain('`vultr:vc2-1c-1gb`');
      expect(await snapshot(data)).toEqual(before);

      const accepted = await refresh(data, fixtures, '--accept', 'vultr:vc2-1c-1gb', '--write');
      expect(accepted.stdout).toContain(`released ${next}`);
      expect(accepted.code).toBe(0);
      const written = (await readJson(join(data, 'providers.json'))).providers.find((p: any) => p.id === 'vultr');
      expect(written.plans.find((p: any) => p.providerPlanId === 'vc2-1c-1gb').price).toBe(oldPrice * 3);
      const changelog = (await readJson(join(data, 'changelog.json'))).releases;
      expect(changelog.at(-1)).toMatchObject({ version: next, date: next });
      expect(changelog.at(-1).changes.plansRepriced).toEqual([
        {
          providerId: 'vultr',
          planName: 'Regular Performance 1 GB',
          providerPlanId: 'vc2-1c-1gb',
          oldPrice,
          newPrice: oldPrice * 3,
          oldCurrency: 'USD',
          currency: 'USD',
        },
      ]);
      expect((await readJson(join(data, 'meta.json'))).version).toBe(next);
      // What was written is a valid dataset the service would load.
      await expect(loadDataset(data)).resolves.toMatchObject({ version: next });
    });

    it('stops on a catalogue that is not JSON, writes nothing, and goes on without that provider only when told to', async () => {
      const data = await temp(DATA_DIR, 'refresh-corrupt-');
      await writeFile(join(fixtures, 'linode', 'v4-linode-types.json'), '{"data": [ {"id": "g6-nanode-1", ');
      const before = await snapshot(data);
      const refused = await refresh(data, fixtures, '--write');
      expect(refused.code).toBe(2);
      expect(refused.stdout).toMatch(/linode: FAILED: CatalogueFormatError: .*not JSON/);
      expect(refused.stdout).toMatch(/linode:catalogue: the catalogue could not be read/);
      expect(await snapshot(data)).toEqual(before);

      const without = await refresh(data, fixtures, '--write', '--accept', 'linode:catalogue');
      expect(without.code).toBe(0);
      expect(without.stdout).toContain('no change: the catalogues read match the dataset; nothing written');
      expect(await snapshot(data)).toEqual(before);
    });

    it('removes a plan that disappears from the catalogue, and keeps one the provider no longer deploys, marked not orderable', async () => {
      const data = await temp(DATA_DIR, 'refresh-gone-');
      const regular = plans.plans.filter((p: any) => p.type === 'vc2' && p.monthly_cost > 0);
      const [gone, deprecated] = regular.filter((p: any) => p.id !== 'vc2-1c-1gb').slice(-2);
      plans.plans = plans.plans.filter((p: any) => p.id !== gone.id);
      plans.plans.find((p: any) => p.id === deprecated.id).deploy_ondemand = false;
      await writeJson(vultrPlans(), plans);
      const served = (await readJson(join(data, 'providers.json'))).providers.find((p: any) => p.id === 'vultr').plans;
      const nameOf = (id: string) => served.find((p: any) => p.providerPlanId === id).name;
      const escaped = (id: string) => nameOf(id).replace(/[/]/g, '\\/');
      const recording = await readJson(join(fixtures, 'vultr', 'recording.json'));

      const result = await refresh(data, fixtures, '--write');
      expect(result.stdout).toMatch(
        new RegExp(`- ${escaped(gone.id)} \\(regular\\) \\S+ USD: no longer in the catalogue`),
      );
      expect(result.stdout).toMatch(
        new RegExp(`\\? ${escaped(deprecated.id)} \\(regular\\) orderable false ${recording.observedAt} \\(was true `),
      );
      expect(result.code).toBe(0);
      const written = (await readJson(join(data, 'providers.json'))).providers.find((p: any) => p.id === 'vultr').plans;
      expect(written.map((p: any) => p.providerPlanId)).not.toContain(gone.id);
      expect(written.find((p: any) => p.providerPlanId === deprecated.id).availability).toEqual({
        orderable: false,
        observedAt: recording.observedAt,
        source: expect.objectContaining({ url: recording.source.url, copyOf: recording.source.copyOf }),
      });
      expect(written.find((p: any) => p.providerPlanId === 'vc2-1c-1gb').availability.orderable).toBe(true);
    });

    it('releases into a dataset of JSON files only, as the CronJob finds it in the ConfigMap', async () => {
      const data = await mkdtemp(join(tmpdir(), 'refresh-configmap-'));
      temps.push(data);
      for (const name of [
        'meta.json',
        'providers.json',
        'use-cases.json',
        'authors.json',
        'exchange-rates.json',
        'vat-rates.json',
      ])
        await cp(join(DATA_DIR, name), join(data, name));
      const target = plans.plans.find((p: any) => p.id === 'vc2-1c-1gb');
      reprice(target, target.monthly_cost + 1);
      await writeJson(vultrPlans(), plans);
      const result = await refresh(data, fixtures, '--write');
      expect(result.stdout).toContain(
        'no editorial/ directory in the dataset: the generated guides are not regenerated here',
      );
      expect(result.code).toBe(0);
      await expect(loadDataset(data)).resolves.toMatchObject({ version: next });
      expect(
        (await readJson(join(data, 'providers.json'))).providers
          .find((p: any) => p.id === 'vultr')
          .plans.find((p: any) => p.providerPlanId === 'vc2-1c-1gb').price,
      ).toBe(target.monthly_cost);
    });

    it('releases the providers it read when one cannot be reached, names that one as retryable, and exits 1', async () => {
      const data = await temp(DATA_DIR, 'refresh-down-');
      const recordingFile = join(fixtures, 'linode', 'recording.json');
      const recording = await readJson(recordingFile);
      // Linode's types answer 503 every time: the client's retries give up, and Linode is unreadable.
      recording.answers.find((a: any) => a.path === '/v4/linode/types').status = 503;
      await writeJson(recordingFile, recording);
      const target = plans.plans.find((p: any) => p.id === 'vc2-1c-1gb');
      reprice(target, target.monthly_cost + 1);
      await writeJson(vultrPlans(), plans);
      const linodeBefore = (await readJson(join(data, 'providers.json'))).providers.find((p: any) => p.id === 'linode');

      const result = await refresh(data, fixtures, '--write');
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/linode: UNREADABLE \(retryable\): CatalogueHttpError: .*503/);
      expect(result.stdout).toContain(
        `UNREADABLE: linode could not be read (retryable: run again later); the others were released in ${next}`,
      );
      // An operations failure, not a case for the plausibility gate.
      expect(result.stdout).not.toContain('linode:catalogue');
      expect(result.stdout).not.toContain('REFUSED');
      const written = (await readJson(join(data, 'providers.json'))).providers;
      expect(
        written.find((p: any) => p.id === 'vultr').plans.find((p: any) => p.providerPlanId === 'vc2-1c-1gb').price,
      ).toBe(target.monthly_cost);
      expect(written.find((p: any) => p.id === 'linode')).toEqual(linodeBefore);
      expect((await readJson(join(data, 'meta.json'))).version).toBe(next);
    });

    it("matches plans by the provider's id: sizes re-specced into each other's names are spec changes, never repricings", async () => {
      const data = await temp(DATA_DIR, 'refresh-renamed-');
      // The 8 GB and the 16 GB size swap memory: each takes the other's name, each keeps its own price.
      const eight = plans.plans.find((p: any) => p.id === 'vc2-4c-8gb');
      const sixteen = plans.plans.find((p: any) => p.id === 'vc2-6c-16gb');
      [eight.ram, sixteen.ram] = [sixteen.ram, eight.ram];
      await writeJson(vultrPlans(), plans);
      const served = (await readJson(join(data, 'providers.json'))).providers.find((p: any) => p.id === 'vultr').plans;
      const was = (id: string) => served.find((p: any) => p.providerPlanId === id);

      const refused = await refresh(data, fixtures, '--write');
      expect(refused.code).toBe(2);
      expect(refused.stdout).toMatch(
        /vultr:vc2-4c-8gb: .*specs changed under the same id \(name Regular Performance 8 GB -> Regular Performance 16 GB.*ram 8GB -> 16GB/,
      );
      expect(refused.stdout).not.toMatch(/~ /);

      const accepted = await refresh(data, fixtures, '--write', '--accept', 'vultr:vc2-4c-8gb,vultr:vc2-6c-16gb');
      expect(accepted.code).toBe(0);
      const { changes } = (await readJson(join(data, 'changelog.json'))).releases.at(-1);
      expect(changes.plansRepriced).toEqual([]);
      expect(changes.plansAdded).toEqual([]);
      expect(changes.plansRemoved).toEqual([]);
      const written = (await readJson(join(data, 'providers.json'))).providers.find((p: any) => p.id === 'vultr').plans;
      expect(written.find((p: any) => p.providerPlanId === 'vc2-4c-8gb')).toMatchObject({
        name: was('vc2-6c-16gb').name,
        price: was('vc2-4c-8gb').price,
      });
    });

    it("keeps Hostinger's renewal and month-to-month prices, and the release passes the validator", async () => {
      const data = await temp(DATA_DIR, 'refresh-hostinger-');
      const shapes = resolve('test/fixtures/catalogue-shapes/hostinger');
      await cp(shapes, join(fixtures, 'hostinger'), { recursive: true });
      const example = (await readJson(join(shapes, 'api-billing-v1-catalog.json')))[0];
      // Made-up cents in the catalogue's shape (Hostinger's answers need a token; none is recorded): the
      // served plans' specs, a 24-month introductory price near the served one, and its renewal and 1-month rates.
      const served = (await readJson(join(data, 'providers.json'))).providers.find(
        (p: any) => p.id === 'hostinger',
      ).plans;
      const catalogue = served.map((plan: any, i: number) => {
        const size = (text: string) => Number(text.replace(/\D+$/, '').replace(/^\D+/, ''));
        const id = `hostingercom-vps-kvm${plan.name.split(' ')[1]}`;
        const intro = Math.round(plan.price * 100) * 24;
        return {
          ...example,
          id,
          name: plan.name,
          metadata: {
            cpus: String(size(plan.cpu)),
            memory: String(size(plan.ram) * 1024),
            disk_space: String(size(plan.storage) * 1024),
            bandwidth: String(size(plan.bandwidth) * 1024 * 1000),
          },
          prices: [
            { id: `${id}-usd-1m`, currency: 'USD', price: 1999 + i * 1000, period: 1, period_unit: 'month' },
            {
              id: `${id}-usd-24m`,
              currency: 'USD',
              price: intro * 2,
              first_period_price: intro,
              period: 24,
              period_unit: 'month',
            },
          ],
        };
      });
      await writeJson(join(fixtures, 'hostinger', 'api-billing-v1-catalog.json'), catalogue);

      const result = await refresh(data, fixtures, '--write');
      expect(result.stdout).toContain('hostinger: 4 plans read');
      expect(result.code).toBe(0);
      const written = (await readJson(join(data, 'providers.json'))).providers.find(
        (p: any) => p.id === 'hostinger',
      ).plans;
      expect(written.map((p: any) => [p.name, p.price, p.renewalPrice, p.monthToMonthPrice])).toEqual(
        served.map((p: any, i: number) => [
          p.name,
          p.price,
          Number((p.price * 2).toFixed(2)),
          Number((19.99 + i * 10).toFixed(2)),
        ]),
      );
      await expect(loadDataset(data)).resolves.toMatchObject({ version: next });
    });

    it('refuses a line that loses more than a fifth of its plans', async () => {
      const data = await temp(DATA_DIR, 'refresh-shrink-');
      const regular = plans.plans.filter((p: any) => p.type === 'vc2' && p.monthly_cost > 0 && p.id !== 'vc2-1c-1gb');
      const cut = new Set(regular.slice(0, Math.ceil(regular.length * 0.3)).map((p: any) => p.id));
      plans.plans = plans.plans.filter((p: any) => !cut.has(p.id));
      await writeJson(vultrPlans(), plans);
      const before = await snapshot(data);
      const result = await refresh(data, fixtures, '--write');
      expect(result.code).toBe(2);
      expect(result.stdout).toMatch(new RegExp(`vultr:line:regular: line regular loses ${cut.size} of its \\d+ plans`));
      expect(await snapshot(data)).toEqual(before);
    });
  });
});
