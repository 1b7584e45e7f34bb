import type { ProviderRecord } from '../../../dataset/dto/provider.dto';
import {
  diffProvider,
  gateCases,
  isEmptyDiff,
  olderReadingCase,
  rateCase,
  type BaselinePoint,
  type ProviderDiff,
} from './refresh-diff';

const plan = (name: string, price: number, extra: Record<string, unknown> = {}) => ({
  name,
  price,
  currency: 'USD',
  cpu: '1 vCPU',
  ram: '1GB',
  storage: '25GB SSD',
  bandwidth: '1TB',
  cpuType: 'shared',
  line: 'std',
  observedAt: '2026-10-01',
  providerPlanId: name.toLowerCase(),
  ...extra,
});
const provider = (plans: ReturnType<typeof plan>[], regionalPrices?: unknown[]) =>
  ({
    id: 'acme',
    currency: 'USD',
    plans,
    planLines: [
      {
        id: 'std',
        source: { url: 'https://example.com', retrievedAt: '2026-10-01', method: 'copy' },
        ...(regionalPrices ? { regionalPrices } : {}),
      },
    ],
  }) as unknown as ProviderRecord;
const five = ['A', 'B', 'C', 'D', 'E'].map((n, i) => plan(n, 10 + i));

describe(gateCases.name, () => {
  const casesFor = (after: ReturnType<typeof plan>[], baseline: Record<string, BaselinePoint> = {}) => {
    const before = provider(five);
    return gateCases(diffProvider(before, provider(after), ['std'], []), before, (id) => baseline[id]).map((c) => c.id);
  };
  const regionalCases = (before: unknown[] | undefined, after: unknown[] | undefined) =>
    gateCases(diffProvider(provider(five, before), provider(five, after), ['std'], []), provider(five, before));
  const saoPaulo = (factor: number | null, note = 'São Paulo costs more') => [
    { datacenters: ['São Paulo'], priceFactor: factor, note },
  ];

  it('lets a price move within x0.5 to x1.5 pass, and stops one beyond', () => {
    expect(casesFor(five.map((p) => (p.name === 'A' ? { ...p, price: 15 } : p)))).toEqual([]);
    expect(casesFor(five.map((p) => (p.name === 'A' ? { ...p, price: 15.01 } : p)))).toEqual(['acme:a']);
    expect(casesFor(five.map((p) => (p.name === 'A' ? { ...p, price: 5 } : p)))).toEqual([]);
    expect(casesFor(five.map((p) => (p.name === 'A' ? { ...p, price: 4.99 } : p)))).toEqual(['acme:a']);
  });

  it('stops specs that change under the same id', () => {
    expect(casesFor(five.map((p) => (p.name === 'B' ? { ...p, ram: '2GB' } : p)))).toEqual(['acme:b']);
  });

  it('stops each spec field that changes under the same id, the CPU type and the name included', () => {
    for (const [field, value] of [
      ['cpu', '2 vCPU'],
      ['storage', '50GB SSD'],
      ['bandwidth', '2TB'],
      ['cpuType', 'dedicated'],
      ['name', 'B renamed'],
    ] as const) {
      expect({ field, cases: casesFor(five.map((p) => (p.name === 'B' ? { ...p, [field]: value } : p))) }).toEqual({
        field,
        cases: ['acme:b'],
      });
    }
  });

  it('stops a price walked in steps the one-run bounds allow, once it is beyond them from its baseline', () => {
    // A is 14 after runs at x1.4 from 10; this run takes it to 15 (x1.07): within one run's bounds, x1.5 from the baseline.
    const walked = [{ ...five[0], price: 14 }, ...five.slice(1)];
    const before = provider(walked);
    const after = provider([{ ...five[0], price: 15.05 }, ...five.slice(1)]);
    const cases = (baseline: Record<string, BaselinePoint>) =>
      gateCases(diffProvider(before, after, ['std'], []), before, (id) => baseline[id]);
    expect(cases({})).toEqual([]);
    expect(cases({ 'acme:a': { value: 10.04, since: '2026-10-01' } })).toEqual([]);
    expect(cases({ 'acme:a': { value: 10, since: '2026-10-01' } })).toEqual([
      { id: 'acme:a', why: expect.stringContaining('price 10 on 2026-10-01, now 15.05 USD (x1.5') },
    ]);
    // Walked down as well as up.
    expect(
      casesFor([{ ...five[0], price: 9 }, ...five.slice(1)], { 'acme:a': { value: 19, since: '2026-10-01' } }),
    ).toEqual(['acme:a']);
  });

  it('stops an added plan priced per vCPU or per GB outside its line, and lets an ordinary one pass', () => {
    const added = (extra: Record<string, unknown>) => [...five, plan('F', 10, { providerPlanId: 'f', ...extra })];
    // The line charges 10 to 14 per vCPU and per GB.
    expect(casesFor(added({ price: 30, cpu: '2 vCPU', ram: '2GB' }))).toEqual([]);
    expect(casesFor(added({ price: 0.5, cpu: '64 vCPU', ram: '256GB' }))).toEqual(['acme:f']);
    expect(casesFor(added({ price: 4.99, cpu: '1 vCPU', ram: '0.5GB' }))).toEqual(['acme:f']);
    expect(casesFor(added({ price: 22, cpu: '1 vCPU', ram: '1GB' }))).toEqual(['acme:f']);
    expect(casesFor(added({ price: 10, cpu: '1 vCPU', ram: '256MB' }))).toEqual(['acme:f']);
    expect(casesFor(added({ price: 10, cpu: 'shared', ram: '1GB' }))).toEqual(['acme:f']);
  });

  it('gives the added plans of a line with nothing served to compare with one case for the line', () => {
    const before = provider(five);
    const newLine = ['X', 'Y'].map((n) => plan(n, 20, { line: 'new' }));
    const after = provider([...five, ...newLine]);
    expect(gateCases(diffProvider(before, after, ['std', 'new'], []), before)).toEqual([
      { id: 'acme:line:new:added', why: expect.stringContaining('its 2 added plans with: X 20 USD, Y 20 USD') },
    ]);
  });

  it('stops an added plan that takes the name of a served plan of another id, unless that plan goes', () => {
    const impostor = plan('B', 12, { providerPlanId: 'b-cheaper' });
    expect(casesFor([...five, impostor])).toEqual(['acme:b-cheaper']);
    expect(casesFor([...five.filter((p) => p.name !== 'B'), impostor])).toEqual([]);
  });

  it('stops a city whose price factor moves beyond the price bounds or starts differing by plan', () => {
    expect(regionalCases(saoPaulo(1.5), saoPaulo(1.5))).toEqual([]);
    expect(regionalCases(saoPaulo(1.5), saoPaulo(2.2))).toEqual([]);
    expect(regionalCases(saoPaulo(1.5), saoPaulo(15)).map((c) => c.id)).toEqual(['acme:line:std:regional']);
    expect(regionalCases(saoPaulo(1.5), saoPaulo(null)).map((c) => c.id)).toEqual(['acme:line:std:regional']);
    expect(
      regionalCases(saoPaulo(null, 'from 150% to 160%'), saoPaulo(null, 'from 150% to 1500%')).map((c) => c.id),
    ).toEqual(['acme:line:std:regional']);
    // A city newly priced apart is a factor from 1.
    expect(regionalCases(undefined, saoPaulo(1.4))).toEqual([]);
    expect(regionalCases(undefined, saoPaulo(10))).toEqual([
      expect.objectContaining({ why: expect.stringContaining('São Paulo price x1 -> x10') }),
    ]);
  });

  it('lists a changed regional price in the diff, so an unchanged plan list is not "no change"', () => {
    const d: ProviderDiff = diffProvider(provider(five, saoPaulo(1.5)), provider(five, saoPaulo(15)), ['std'], []);
    expect(isEmptyDiff(d)).toBe(false);
    expect(d.regionalChanged).toEqual([
      {
        line: 'std',
        city: 'São Paulo',
        old: expect.objectContaining({ factor: 1.5 }),
        new: expect.objectContaining({ factor: 15 }),
      },
    ]);
  });

  it('lets a line lose a fifth of its plans, and stops it losing more', () => {
    expect(casesFor(five.slice(1))).toEqual([]);
    expect(casesFor(five.slice(2))).toEqual(['acme:line:std']);
  });

  it('stops a change of currency', () => {
    expect(casesFor(five.map((p) => ({ ...p, currency: 'EUR' })))).toContain('acme:currency');
  });

  it('calls an identical reading no change', () => {
    expect(isEmptyDiff(diffProvider(provider(five), provider(five), ['std'], []))).toBe(true);
    expect(
      isEmptyDiff(
        diffProvider(provider(five), provider(five.map((p) => ({ ...p, observedAt: '2026-11-01' }))), ['std'], []),
      ),
    ).toBe(false);
  });
});

describe(olderReadingCase.name, () => {
  it('compares a reading with the newest served date of its lines, not the oldest', () => {
    const served = ['2026-09-01', '2026-11-01', '2026-10-01'];
    expect(olderReadingCase('acme', '2026-10-15', served)).toEqual({
      id: 'acme:older',
      why: expect.stringContaining('older than the newest served (2026-11-01)'),
    });
    expect(olderReadingCase('acme', '2026-11-01', served)).toBeUndefined();
    expect(olderReadingCase('acme', '2026-08-01', [])).toBeUndefined();
  });
});

describe(rateCase.name, () => {
  it('stops a rate that moves beyond x1.2 either way in one run or from its baseline', () => {
    expect(rateCase('USD', 1.16, 1.18, undefined, 'ecb:USD')).toBeUndefined();
    expect(rateCase('USD', 1.16, 1.0e-7, undefined, 'ecb:USD')).toEqual({
      id: 'ecb:USD',
      why: expect.stringContaining('1.16 -> 1e-7'),
    });
    expect(rateCase('USD', 1.16, 1.4, undefined, 'ecb:USD')?.id).toBe('ecb:USD');
    expect(rateCase('USD', 1.16, 0.96, undefined, 'ecb:USD')?.id).toBe('ecb:USD');
    expect(rateCase('USD', 1.3, 1.4, { value: 1.1, since: '2026-11-01' }, 'ecb:USD')?.why).toContain(
      'over the runs since',
    );
    expect(rateCase('USD', 1.3, 1.3, { value: 1.25, since: '2026-11-01' }, 'ecb:USD')).toBeUndefined();
  });
});
