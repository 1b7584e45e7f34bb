import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VultrCatalogue } from '../adapters/vultr.adapter.js';
import { GATE_BASELINE_FILE } from './gate-baseline.js';
import { runRefresh, type RefreshOptions } from './refresh.js';

/*
 * The refresher's gate and refusal paths, run in-process over a copy of the dataset and of the recorded
 * Vultr and ECB answers (the real adapter, client, replay server and release), one change at a time.
 */

const FIXTURES = 'test/fixtures/catalogues';
const readJson = async (path: string) => JSON.parse(await readFile(path, 'utf8'));
const writeJson = (path: string, value: unknown) => writeFile(path, `${JSON.stringify(value, null, 2)}\n`);
const dayAfter = (date: string, days = 1) => new Date(Date.parse(date) + days * 86_400_000).toISOString().slice(0, 10);

interface RawPlan {
  id: string;
  type: string;
  vcpu_count: number;
  ram: number;
  disk: number;
  monthly_cost: number;
  hourly_cost: number;
  locations: string[];
  location_cost?: Record<string, { monthly_cost: number; hourly_cost: number }>;
}

describe(runRefresh.name, () => {
  const temps: string[] = [];
  let data: string;
  let fixtures: string;
  let version: string;
  let lines: string[];
  const temp = async (from: string, prefix: string) => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    temps.push(dir);
    await cp(from, dir, { recursive: true });
    return dir;
  };
  const plansFile = () => join(fixtures, 'vultr', 'v2-plans.json');
  const changePlans = async (change: (plans: RawPlan[]) => void) => {
    const body = await readJson(plansFile());
    change(body.plans);
    await writeJson(plansFile(), body);
  };
  const refresh = (date: string, extra: Partial<RefreshOptions> = {}) =>
    runRefresh({
      dataDir: data,
      adapters: [new VultrCatalogue()],
      from: fixtures,
      write: true,
      accept: new Set(),
      date,
      reviewFile: join(data, '..', `${data.split('/').pop()}-review.md`),
      env: {},
      client: { baseDelayMs: 1 },
      log: (line) => lines.push(line),
      ...extra,
    });
  const caseIds = (result: Awaited<ReturnType<typeof refresh>>) => result.cases.map((c) => c.id).sort();

  beforeEach(async () => {
    data = await temp('data', 'refresh-unit-data-');
    fixtures = await temp(FIXTURES, 'refresh-unit-fixtures-');
    version = (await readJson(join(data, 'meta.json'))).version;
    lines = [];
  });
  afterAll(async () => {
    await Promise.all(temps.map((t) => rm(t, { recursive: true, force: true })));
    await Promise.all(temps.map((t) => rm(`${t}-review.md`, { force: true })));
  });

  it('cannot be walked: runs at x1.4 each pass once, then the baseline stops the price', async () => {
    const walk = async (factor: number) =>
      changePlans((plans) => {
        const plan = plans.find((p) => p.id === 'vc2-1c-1gb')!;
        plan.monthly_cost = Number((plan.monthly_cost * factor).toFixed(2));
        plan.location_cost!.sao.monthly_cost = Number((plan.location_cost!.sao.monthly_cost * factor).toFixed(2));
      });
    await walk(1.4);
    const first = await refresh(dayAfter(version));
    expect({ code: first.exitCode, cases: caseIds(first) }).toEqual({ code: 0, cases: [] });
    expect((await readJson(join(data, GATE_BASELINE_FILE))).prices['vultr:vc2-1c-1gb']).toEqual({
      value: 5,
      since: dayAfter(version),
    });
    await walk(1.4);
    const second = await refresh(dayAfter(version, 2));
    expect({ code: second.exitCode, cases: caseIds(second) }).toEqual({ code: 2, cases: ['vultr:vc2-1c-1gb'] });
    expect(second.cases[0].why).toContain(`price 5 on ${dayAfter(version)}, now 9.8 USD (x1.96`);
    // Accepted, the accepted price becomes the baseline.
    const accepted = await refresh(dayAfter(version, 2), { accept: new Set(['vultr:vc2-1c-1gb']) });
    expect(accepted.exitCode).toBe(0);
    expect((await readJson(join(data, GATE_BASELINE_FILE))).prices['vultr:vc2-1c-1gb']).toEqual({
      value: 9.8,
      since: dayAfter(version, 2),
    });
  });

  it('gates an added plan priced far below its line, and one that takes a served size name', async () => {
    await changePlans((plans) => {
      const model = plans.find((p) => p.id === 'vc2-1c-2gb')!;
      plans.push({
        ...model,
        id: 'vc2-64c-256gb',
        vcpu_count: 64,
        ram: 262_144,
        disk: 2000,
        monthly_cost: 0.5,
        location_cost: undefined,
      });
      plans.push({ ...model, id: 'vc2-1c-2gb-promo', disk: 20, monthly_cost: 9, location_cost: undefined });
    });
    const result = await refresh(dayAfter(version));
    expect(result.exitCode).toBe(2);
    expect(caseIds(result)).toEqual(['vultr:vc2-1c-2gb', 'vultr:vc2-1c-2gb-promo', 'vultr:vc2-64c-256gb']);
    const why = Object.fromEntries(result.cases.map((c) => [c.id, c.why]));
    expect(why['vultr:vc2-64c-256gb']).toMatch(/per vCPU, outside the line's/);
    expect(why['vultr:vc2-1c-2gb-promo']).toContain('takes the name of the served plan vc2-1c-2gb');
    expect(why['vultr:vc2-1c-2gb']).toContain('name Regular Performance 2 GB -> Regular Performance 2 GB / 55 GB');
    // Nothing was released: the starting price is still the served one.
    const vultr = (await readJson(join(data, 'providers.json'))).providers.find(
      (p: { id: string }) => p.id === 'vultr',
    );
    expect(vultr.startingPrice).toBe(2.5);
  });

  it('gates a regional price that moves tenfold, which used to read as no change', async () => {
    await changePlans((plans) => {
      for (const plan of plans.filter((p) => p.type === 'vc2' && p.location_cost?.sao))
        plan.location_cost!.sao.monthly_cost *= 10;
    });
    const result = await refresh(dayAfter(version));
    expect({ code: result.exitCode, cases: caseIds(result) }).toEqual({
      code: 2,
      cases: ['vultr:line:regular:regional'],
    });
    expect(result.cases[0].why).toContain('São Paulo price x1.5 -> x15');
  });

  it('gates an exchange rate of 1e-7, and releases an ordinary day of whole ECB rates, which dates every currency', async () => {
    const served = await readJson(join(data, 'exchange-rates.json'));
    const xmlFile = join(fixtures, 'ecb', 'eurofxref-daily.xml');
    const xml = (await readFile(xmlFile, 'utf8')).replace(/time='[\d-]+'/, `time='${version}'`);
    await writeFile(xmlFile, xml.replace(/currency='USD' rate='[\d.]+'/, "currency='USD' rate='0.0000001'"));
    const refused = await refresh(dayAfter(version));
    expect({ code: refused.exitCode, cases: caseIds(refused) }).toEqual({ code: 2, cases: ['ecb:USD'] });
    expect(refused.cases[0].why).toContain(`USD per EUR ${served.rates.USD} -> 1e-7`);

    await writeFile(xmlFile, xml);
    const released = await refresh(dayAfter(version));
    expect({ code: released.exitCode, cases: caseIds(released) }).toEqual({ code: 0, cases: [] });
    const rates = await readJson(join(data, 'exchange-rates.json'));
    expect(rates.date).toBe(version);
    // Every currency takes the day, and none is any longer read from a copy.
    expect(Object.keys(rates.rateDates).sort()).toEqual(
      Object.keys(served.rates)
        .filter((c) => c !== 'EUR')
        .sort(),
    );
    expect(new Set(Object.values(rates.rateDates))).toEqual(new Set([version]));
    expect(rates.rateSources).toBeUndefined();
    expect(rates.rates.USD).toBe(Number(/currency='USD' rate='([\d.]+)'/.exec(xml)![1]));
    expect((await readJson(join(data, GATE_BASELINE_FILE))).rates['ecb:USD']).toEqual({
      value: served.rates.USD,
      since: dayAfter(version),
    });
  });

  it('takes a partial reading only as a newer day of the currencies it carries, and gates a wild one', async () => {
    // The table as it was before any rate had its own day: every rate of one day, the dollar at 1.1798.
    const ratesFile = join(data, 'exchange-rates.json');
    const served = await readJson(ratesFile);
    const { rateDates: _days, rateSources: _copies, ...table } = served;
    const before = { ...table, rates: { ...table.rates, USD: 1.1798 } };
    await writeJson(ratesFile, before);
    const copy = await readJson(join(fixtures, 'ecb', 'vps-price-index-plans-head.json'));

    const released = await refresh(dayAfter(version));
    expect({ code: released.exitCode, cases: caseIds(released) }).toEqual({ code: 0, cases: [] });
    const after = await readJson(ratesFile);
    expect(after.rates).toEqual({ ...before.rates, USD: copy.fx.EUR_USD });
    expect(after.rateDates.USD).toBe(copy.fx.date);
    expect(after.rateSources.USD.copyOf).toBe(copy.fx.source);
    // Every other currency keeps its own, older day, which stays the table's date.
    for (const code of Object.keys(before.rates).filter((c) => c !== 'EUR' && c !== 'USD'))
      expect(after.rateDates[code]).toBe(before.date);
    expect(after.date).toBe(before.date);
    expect(lines).toContain(`  ~ USD per EUR 1.1798 (${before.date}) -> ${copy.fx.EUR_USD} (${copy.fx.date}, a copy)`);

    // Read again, the same copy dates nothing: it is not newer than the dollar's day.
    lines = [];
    const again = await refresh(dayAfter(version, 2));
    expect(again.exitCode).toBe(0);
    expect(lines).toContain('no change: the catalogues read match the dataset; nothing written');

    // A copy of a later day with a wild rate is gated like the ECB's own.
    await writeJson(join(fixtures, 'ecb', 'vps-price-index-plans-head.json'), {
      ...copy,
      fx: { ...copy.fx, EUR_USD: 11.378, date: dayAfter(copy.fx.date) },
    });
    const refused = await refresh(dayAfter(version, 2));
    expect({ code: refused.exitCode, cases: caseIds(refused) }).toEqual({ code: 2, cases: ['ecb:USD'] });
    expect(refused.cases[0].why).toContain(`USD per EUR ${copy.fx.EUR_USD} -> 11.378`);
  });

  it('gates a reading older than the newest served price of its lines', async () => {
    const recording = await readJson(join(fixtures, 'vultr', 'recording.json'));
    await writeJson(join(fixtures, 'vultr', 'recording.json'), { ...recording, observedAt: '2026-01-07' });
    const result = await refresh(dayAfter(version));
    expect(result.exitCode).toBe(2);
    expect(caseIds(result)).toContain('vultr:older');
  });

  it('refuses a catalogue it cannot read, and one that sells in a line the dataset does not define', async () => {
    await writeFile(plansFile(), '{"plans": [');
    const failed = await refresh(dayAfter(version));
    expect({ code: failed.exitCode, cases: caseIds(failed) }).toEqual({ code: 2, cases: ['vultr:catalogue'] });

    await cp(join(FIXTURES, 'vultr', 'v2-plans.json'), plansFile());
    const providers = await readJson(join(data, 'providers.json'));
    const vultr = providers.providers.find((p: { id: string }) => p.id === 'vultr');
    vultr.planLines = vultr.planLines.filter((l: { id: string }) => l.id !== 'general-purpose');
    await writeJson(join(data, 'providers.json'), providers);
    const unknownLine = await refresh(dayAfter(version));
    expect(unknownLine.exitCode).toBe(2);
    expect(unknownLine.cases).toEqual([
      {
        id: 'vultr:catalogue',
        why: expect.stringContaining('in line general-purpose, which providers.json does not define'),
      },
    ]);
  });

  it('stops on a gate baseline it cannot read, before it reads any catalogue', async () => {
    await writeFile(join(data, GATE_BASELINE_FILE), JSON.stringify({ prices: { 'vultr:x': { value: 0 } }, rates: {} }));
    await expect(refresh(dayAfter(version))).rejects.toThrow(/is not a gate baseline/);
  });

  it('prints no escape sequence a catalogue sends, in its log or its review', async () => {
    await changePlans((plans) => {
      const model = plans.find((p) => p.id === 'vc2-1c-1gb')!;
      plans.push({
        ...model,
        id: 'vc2-\u001b[2J\u001b]0;owned\u0007-1c-1gb\nvultr: no change',
        monthly_cost: 0.01,
        location_cost: undefined,
      });
    });
    const result = await refresh(dayAfter(version), { write: false });
    expect(result.exitCode).toBe(2);
    const review = await readFile(join(data, '..', `${data.split('/').pop()}-review.md`), 'utf8');
    expect(lines.join('\n')).toContain('vultr:vc2--1c-1gb\\x0avultr: no change');
    for (const text of [...lines, review]) expect(text).not.toMatch(/[\u001b\u0007]/);
    expect(lines).not.toContain('vultr: no change');
  });
});
