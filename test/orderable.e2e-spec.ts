import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InvalidDatasetError, loadDataset } from '../src/dataset/dataset-loader';
import { onReleaseDay } from './support/clock';
import { copyData } from './support/operations';
import { startTestApp, type TestApp } from './support/test-app';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

// The expectations below are worked out for the release day; ages are measured to the day of the answer.
onReleaseDay();

/*
 * A plan the provider lists but no longer lets anyone order is served, marked, with the date and the
 * source of that reading, and is never the provider's starting price.
 */
describe('a plan that cannot be ordered', () => {
  let dir: string;
  let t: TestApp | undefined;
  let cheapest: Json;
  let next: Json;
  const providersFile = () => join(dir, 'providers.json');

  beforeAll(async () => {
    dir = await copyData();
    const data = JSON.parse(await readFile(providersFile(), 'utf8'));
    const vultr = data.providers.find((p: Json) => p.id === 'vultr');
    const line = (plan: Json) => vultr.planLines.find((l: Json) => l.id === plan.line);
    const byPrice = [...vultr.plans].sort((a: Json, b: Json) => a.price - b.price);
    [cheapest, next] = byPrice;
    expect(vultr.startingPrice).toBe(cheapest.price);
    expect(next.price).toBeGreaterThan(cheapest.price);
    // Read from the line's own catalogue copy, on the day its prices were seen.
    cheapest.availability = {
      orderable: false,
      observedAt: cheapest.observedAt,
      source: line(cheapest).source,
      successor: next.name,
    };
    vultr.plans.find((p: Json) => p.name === cheapest.name).availability = cheapest.availability;
    await writeFile(providersFile(), JSON.stringify(data, null, 2));
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is refused as the starting price by the validator', async () => {
    const error = await loadDataset(dir).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InvalidDatasetError);
    expect((error as InvalidDatasetError).problems).toContainEqual(
      expect.stringContaining(
        `startingPrice: must equal the cheapest price of a plan that can be ordered (${next.price})`,
      ),
    );
  });

  it('is served marked, with the date and source of the reading, and not as the starting price', async () => {
    const data = JSON.parse(await readFile(providersFile(), 'utf8'));
    data.providers.find((p: Json) => p.id === 'vultr').startingPrice = next.price;
    await writeFile(providersFile(), JSON.stringify(data, null, 2));
    t = await startTestApp({ DATA_DIR: dir });

    const { provider } = (await t.http.get('/api/providers/vultr.json').expect(200)).body;
    expect(provider.startingPrice).toBe(next.price);
    const served = provider.plans.find((p: Json) => p.name === cheapest.name);
    expect(served).toMatchObject({
      orderable: false,
      orderableObservedAt: cheapest.observedAt,
      orderableSourceUrl: cheapest.availability.source.url,
      successor: next.name,
    });
    // The next plan keeps the catalogue's own reading, which says it can be ordered.
    expect(next.availability.orderable).toBe(true);
    expect(provider.plans.find((p: Json) => p.name === next.name)).toMatchObject({
      orderable: true,
      orderableObservedAt: next.availability.observedAt,
    });

    const rows = (await t.http.get('/api/plans.json').expect(200)).body.plans;
    expect(rows.find((r: Json) => r.planName === cheapest.name)).toMatchObject({
      orderable: false,
      orderableObservedAt: cheapest.observedAt,
    });
    const page = await t.http.get('/providers/vultr').set('Accept', 'text/markdown').expect(200);
    expect(page.text).toContain(`not orderable (seen ${cheapest.observedAt}), replaced by ${next.name}`);
  });
});
