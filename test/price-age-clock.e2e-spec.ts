import { rawMeta, rawProviders } from './support/raw-data';
import { REAL_TIMERS } from './support/clock';
import { metric, scrape } from './support/operations';
import { startTestApp, type TestApp } from './support/test-app';

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/*
 * Ages are measured to the day of the answer, not to the release: with no release and no reload, a
 * price ages into stale when the clock passes 90 days after it was seen, the served documents change
 * (and their ETags with them), and dataset_price_age_days rises with the clock. Only Date is faked:
 * the server's timers and sockets run for real.
 */

const DAY = 86_400_000;
const at = (day: string, hour = 12) => new Date(Date.parse(`${day}T00:00:00Z`) + hour * 3_600_000);
const plus = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

// The provider whose plans were seen most recently, and the day they were seen.
const newest = rawProviders.providers
  .map((p: Json) => ({
    id: p.id as string,
    seen: p.plans.map((plan: Json) => plan.observedAt as string).sort()[0] as string,
    plans: p.plans.length as number,
  }))
  .filter(
    (p: { seen: string }) =>
      p.seen ===
      [...new Set<string>(rawProviders.providers.flatMap((x: Json) => x.plans.map((plan: Json) => plan.observedAt)))]
        .sort()
        .at(-1),
  )[0];

describe('prices age against today, without a release', () => {
  let t: TestApp;
  beforeAll(async () => {
    jest.useFakeTimers({
      doNotFake: REAL_TIMERS,
    });
    jest.setSystemTime(at(rawMeta.version));
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
    jest.useRealTimers();
  });

  const provider = async () => {
    const res = await t.http.get(`/api/providers/${newest.id}.json`).expect(200);
    return {
      etag: res.headers.etag as string,
      plans: res.body.provider.plans as Json[],
      priceAge: res.body.provider.priceAge,
    };
  };

  it('turns a price stale when the clock passes 90 days after it was seen, and the document and its ETag change', async () => {
    // The day before: 90 days old, not stale (stale is over 90).
    jest.setSystemTime(at(plus(newest.seen, 90), 23));
    const before = await provider();
    expect(before.plans.map((p) => [p.priceAgeDays, p.stale])).toEqual(before.plans.map(() => [90, false]));
    expect(before.priceAge.stalePrices).toBe(0);
    // The same day again: the same document.
    expect((await provider()).etag).toBe(before.etag);

    // Past midnight UTC: a day older, stale, with the day in the reason.
    jest.setSystemTime(at(plus(newest.seen, 91), 0));
    const after = await provider();
    expect(after.plans.map((p) => [p.priceAgeDays, p.stale])).toEqual(after.plans.map(() => [91, true]));
    expect(after.plans[0].staleReason).toContain(`91 days before ${plus(newest.seen, 91)}`);
    expect(after.priceAge.stalePrices).toBe(newest.plans);
    expect(after.etag).not.toBe(before.etag);
    await t.http.get(`/api/providers/${newest.id}.json`).set('If-None-Match', before.etag).expect(200);
    await t.http.get(`/api/providers/${newest.id}.json`).set('If-None-Match', after.etag).expect(304);

    // The home page's freshness sentence counts the stale prices of today, not the release date.
    const home = await t.http.get('/').set('Accept', 'text/markdown').expect(200);
    const list = (await t.http.get('/api/providers.json').expect(200)).body;
    const total = list.providers.reduce((n: number, p: Json) => n + p.plans.length, 0);
    expect(home.text).toContain(
      `prices seen between ${list.priceAge.oldestObservedAt} and ${list.priceAge.newestObservedAt}; ${list.priceAge.stalePrices} of ${total} stale on ${plus(newest.seen, 91)}`,
    );
    expect(list.priceAge.stalePrices).toBe(total);
  });

  it('raises dataset_price_age_days with the clock', async () => {
    const series = `dataset_price_age_days{provider="${newest.id}",stat="oldest"}`;
    jest.setSystemTime(at(plus(newest.seen, 30)));
    expect(metric(await scrape(t), series)).toBe(30);
    jest.setSystemTime(at(plus(newest.seen, 200)));
    expect(metric(await scrape(t), series)).toBe(200);
  });
});
