import {
  meetsSpec,
  parseBandwidth,
  parseSizeGb,
  parseStorage,
  parseVcpus,
  planFigures,
  specText,
} from './plan-figures';

describe('plan figures', () => {
  it.each([
    ['2 vCPU', 2],
    ['1 vCPU', 1],
    ['16 vCPUs', 16],
    ['4 vCores', 4],
    ['8 cores', 8],
    ['2x vCPU', 2],
    [' 3 vcpu', 3],
    ['vCPU', null],
    ['0 vCPU', null],
    ['two vCPU', null],
    ['', null],
  ])('reads %j as %p vCPUs', (text, expected) => {
    expect(parseVcpus(text)).toBe(expected);
  });

  it.each([
    ['512MB', 0.5],
    ['1GB', 1],
    ['1.5GB', 1.5],
    ['1,5 GB', 1.5],
    ['4 GB', 4],
    ['2TB', 2048],
    ['8GiB', 8],
    ['256 MiB', 0.25],
    ['Unlimited', null],
    ['2 gb', 2],
    ['512KB', 0.0005],
    ['GB', null],
    ['-4GB', null],
    ['0GB', null],
    ['4 PB', null],
    ['9'.repeat(50) + 'GB', null],
  ])('reads %j as %p GB', (text, expected) => {
    expect(parseSizeGb(text)).toBe(expected);
  });

  it.each([
    ['80GB NVMe', { gb: 80, type: 'NVMe' }],
    ['25GB MaxIOPS SSD', { gb: 25, type: 'SSD' }],
    ['1TB HDD', { gb: 1024, type: 'HDD' }],
    ['50GB ssd', { gb: 50, type: 'SSD' }],
    ['100GB', { gb: 100, type: null }],
    ['NVMe', { gb: null, type: 'NVMe' }],
  ])('reads storage %j', (text, expected) => {
    expect(parseStorage(text)).toEqual(expected);
  });

  it.each([
    ['20TB', { tb: 20, unmetered: false }],
    ['500GB', { tb: 0.5, unmetered: false }],
    ['1.5 TB', { tb: 1.5, unmetered: false }],
    ['500 GiB', { tb: 0.5, unmetered: false }],
    ['0TB', { tb: null, unmetered: false }],
    ['Unmetered', { tb: null, unmetered: true }],
    ['Unmetered (400 Mbit/s)', { tb: null, unmetered: true }],
    ['1 Gbps unmetered', { tb: null, unmetered: true }],
    ['Unlimited', { tb: null, unmetered: true }],
    ['Fair-use allowance', { tb: null, unmetered: false }],
    ['', { tb: null, unmetered: false }],
  ])('reads bandwidth %j', (text, expected) => {
    expect(parseBandwidth(text)).toEqual(expected);
  });

  it('parses a whole plan', () => {
    expect(planFigures({ cpu: '4 vCPU', ram: '8GB', storage: '75GB NVMe', bandwidth: '32TB' })).toEqual({
      vcpus: 4,
      ramGb: 8,
      storageGb: 75,
      storageType: 'NVMe',
      bandwidthTb: 32,
      unmetered: false,
    });
  });

  it('stays linear on hostile input', () => {
    // Linear parsing of these 200,000 characters takes milliseconds; a backtracking pattern would take
    // minutes. The bound sits far between the two, so two busy shared cores cannot cross it.
    const hostile = '1'.repeat(100_000) + 'x'.repeat(100_000);
    const started = process.hrtime.bigint();
    for (const parse of [parseVcpus, parseSizeGb, (t: string) => parseStorage(t), (t: string) => parseBandwidth(t)])
      parse(hostile);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(10_000);
  }, 30_000);

  it.each([
    [
      { vcpus: 2, ramGb: 4, storageGb: 80, bandwidthTb: 2 },
      { cpu: '2 vCPU', ram: '4GB', storage: '80GB', bandwidth: '2TB' },
    ],
    [
      { vcpus: 1, ramGb: 0.5, storageGb: 10, bandwidthTb: 0.5 },
      { cpu: '1 vCPU', ram: '512MB', storage: '10GB', bandwidth: '500GB' },
    ],
    [
      { vcpus: 8, ramGb: 1.5, storageGb: 4000, bandwidthTb: 0.1 },
      { cpu: '8 vCPU', ram: '1.5GB', storage: '4000GB', bandwidth: '100GB' },
    ],
    [
      { vcpus: 1, ramGb: 1, storageGb: 25, bandwidthTb: 1 },
      { cpu: '1 vCPU', ram: '1GB', storage: '25GB', bandwidth: '1TB' },
    ],
  ])('writes the spec %j as the contract text %j, which parses back to the same figures', (figures, text) => {
    expect(specText(figures)).toEqual(text);
    expect(parseVcpus(text.cpu)).toBe(figures.vcpus);
    expect(parseSizeGb(text.ram)).toBe(figures.ramGb);
    expect(parseSizeGb(text.storage)).toBe(figures.storageGb);
    expect(parseBandwidth(text.bandwidth).tb).toBe(figures.bandwidthTb);
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

  it.each([
    ['vcpus', { minVcpus: 1 }],
    ['ramGb', { minRamGb: 1 }],
    ['storageGb', { minStorageGb: 1 }],
  ])('fails a set bound when %s could not be read', (field, bounds) => {
    expect(meetsSpec({ ...row, [field]: null } as never, bounds)).toBe(false);
    // Even a bound of zero: a figure that could not be read is not known to meet it.
    expect(
      meetsSpec({ ...row, [field]: null } as never, Object.fromEntries(Object.keys(bounds).map((k) => [k, 0]))),
    ).toBe(false);
    expect(meetsSpec({ ...row, [field]: null } as never, {})).toBe(true);
  });

  it('accepts a bound of zero when the figure is zero', () => {
    expect(meetsSpec({ ...row, storageGb: 0 } as never, { minStorageGb: 0 })).toBe(true);
  });
});
