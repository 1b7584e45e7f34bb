import type { ProviderRecord } from '../../../dataset/dto/provider.dto';
import { diffProvider, gateCases, isEmptyDiff } from './refresh-diff';

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
const provider = (plans: ReturnType<typeof plan>[]) =>
  ({
    id: 'acme',
    currency: 'USD',
    plans,
    planLines: [{ id: 'std', source: { url: 'https://example.com', retrievedAt: '2026-10-01', method: 'copy' } }],
  }) as unknown as ProviderRecord;
const five = ['A', 'B', 'C', 'D', 'E'].map((n, i) => plan(n, 10 + i));

describe(gateCases.name, () => {
  const casesFor = (after: ReturnType<typeof plan>[]) => {
    const before = provider(five);
    return gateCases(diffProvider(before, provider(after), ['std'], []), before).map((c) => c.id);
  };

  it('lets a price move within x0.5 to x1.5 pass, and stops one beyond', () => {
    expect(casesFor(five.map((p) => (p.name === 'A' ? { ...p, price: 15 } : p)))).toEqual([]);
    expect(casesFor(five.map((p) => (p.name === 'A' ? { ...p, price: 15.01 } : p)))).toEqual(['acme:a']);
    expect(casesFor(five.map((p) => (p.name === 'A' ? { ...p, price: 5 } : p)))).toEqual([]);
    expect(casesFor(five.map((p) => (p.name === 'A' ? { ...p, price: 4.99 } : p)))).toEqual(['acme:a']);
  });

  it('stops specs that change under the same id', () => {
    expect(casesFor(five.map((p) => (p.name === 'B' ? { ...p, ram: '2GB' } : p)))).toEqual(['acme:b']);
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
