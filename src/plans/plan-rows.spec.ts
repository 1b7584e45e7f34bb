import type { AppConfig } from '../config/app-config';
import type { DatasetSnapshot } from '../dataset/dataset-snapshot';
import { buildPlanRows, meetsSpec } from './plan-rows';

describe(buildPlanRows.name, () => {
  const plan = (name: string, cpu: string, ram: string) => ({ name, price: 5, currency: 'USD', cpu, ram, storage: '25GB NVMe', bandwidth: '1TB', cpuType: 'shared' as const });
  const snapshot = {
    providers: [
      { id: 'alpha', name: 'Alpha Cloud', url: '/providers/alpha', plans: [plan('a1', '1 vCPU', '1GB'), plan('a2', '2 vCPU', '4GB')] },
      { id: 'beta', name: 'Beta Hosting', url: '/providers/beta', plans: [plan('b1', '4 vCPU', '8GB')] },
    ],
  } as unknown as DatasetSnapshot;
  const config = { url: (path: string) => `https://vpsapi.test${path}` } as unknown as AppConfig;

  it('lists every plan of every provider in dataset order, with its provider, absolute URL and parsed figures', () => {
    const rows = buildPlanRows(snapshot, config);
    expect(rows.map((r) => [r.providerId, r.providerName, r.plan.name, r.url])).toEqual([
      ['alpha', 'Alpha Cloud', 'a1', 'https://vpsapi.test/providers/alpha'],
      ['alpha', 'Alpha Cloud', 'a2', 'https://vpsapi.test/providers/alpha'],
      ['beta', 'Beta Hosting', 'b1', 'https://vpsapi.test/providers/beta'],
    ]);
    expect(rows[1]).toMatchObject({ vcpus: 2, ramGb: 4, storageGb: 25, storageType: 'NVMe', bandwidthTb: 1, unmetered: false });
    expect(rows[1].plan).toBe(snapshot.providers[0].plans[1]);
  });
});

describe(meetsSpec.name, () => {
  const row = { vcpus: 2, ramGb: 4, storageGb: 80 };

  it('accepts a plan with no bounds set', () => {
    expect(meetsSpec({ ...row, vcpus: null, ramGb: null, storageGb: null } as never, {})).toBe(true);
  });

  it.each([
    ['minVcpus', { minVcpus: 2 }, { minVcpus: 3 }],
    ['minRamGb', { minRamGb: 4 }, { minRamGb: 4.5 }],
    ['minStorageGb', { minStorageGb: 80 }, { minStorageGb: 81 }],
  ])('includes the bound %s itself and refuses one above it', (_name, equal, above) => {
    expect(meetsSpec(row as never, equal)).toBe(true);
    expect(meetsSpec(row as never, above)).toBe(false);
  });

  it.each([['vcpus', { minVcpus: 1 }], ['ramGb', { minRamGb: 1 }], ['storageGb', { minStorageGb: 1 }]])('fails a set bound when %s could not be read', (field, bounds) => {
    expect(meetsSpec({ ...row, [field]: null } as never, bounds)).toBe(false);
    // Even a bound of zero: a figure that could not be read is not known to meet it.
    expect(meetsSpec({ ...row, [field]: null } as never, Object.fromEntries(Object.keys(bounds).map((k) => [k, 0])))).toBe(false);
    expect(meetsSpec({ ...row, [field]: null } as never, {})).toBe(true);
  });

  it('accepts a bound of zero when the figure is zero', () => {
    expect(meetsSpec({ ...row, storageGb: 0 } as never, { minStorageGb: 0 })).toBe(true);
  });
});
