import {
  beyondDataset,
  closestPlans,
  overOf,
  shortOf,
  type ClosestPlan,
  type ConstraintMiss,
} from './closest-plans.js';

const plan = (planName: string, normalizedPrice: number, misses: ConstraintMiss[]): ClosestPlan => ({
  providerId: 'p',
  planName,
  normalizedPrice,
  vcpus: 1,
  ramGb: 1,
  storageGb: 10,
  storageType: 'SSD',
  cpuType: 'shared',
  observedAt: '2026-01-01',
  stale: false,
  misses,
});

describe('closestPlans', () => {
  // 16 GB under 5: the 16 GB plans overshoot the budget by more than any small plan falls short on RAM.
  const big = [
    plan('16 GB at 11', 11, [overOf(5, 11)]),
    plan('16 GB at 12', 12, [overOf(5, 12)]),
    plan('32 GB at 20', 20, [overOf(5, 20)]),
  ];
  const small = [
    plan('8 GB at 5', 5, [shortOf('minRamGb', 16, 8)]),
    plan('4 GB at 4', 4, [shortOf('minRamGb', 16, 4)]),
    plan('2 GB at 3', 3, [shortOf('minRamGb', 16, 2)]),
  ];
  const both = plan('8 GB at 9', 9, [shortOf('minRamGb', 16, 8), overOf(5, 9)]);

  it('ranks by constraints missed, then by the share missing, then by price, without a price ceiling', () => {
    expect(closestPlans([...big, both, ...small], 4).map((c) => c.planName)).toEqual([
      '8 GB at 5',
      '4 GB at 4',
      '2 GB at 3',
      '16 GB at 11',
    ]);
  });

  it('with a price ceiling shows the cheapest plans above it first (half, rounded up), then the closest within it', () => {
    expect(closestPlans([...small, both, ...big], 5, true).map((c) => c.planName)).toEqual([
      '16 GB at 11',
      '16 GB at 12',
      '32 GB at 20',
      '8 GB at 5',
      '4 GB at 4',
    ]);
    expect(closestPlans([...small, ...big], 2, true).map((c) => c.planName)).toEqual(['16 GB at 11', '8 GB at 5']);
    expect(closestPlans([...small, ...big], 1, true).map((c) => c.planName)).toEqual(['16 GB at 11']);
  });

  it('fills the places one kind leaves empty with the next closest plans', () => {
    expect(closestPlans([...small, both], 5, true).map((c) => c.planName)).toEqual([
      '8 GB at 5',
      '4 GB at 4',
      '2 GB at 3',
      '8 GB at 9',
    ]);
    expect(closestPlans([big[0], both], 3, true).map((c) => c.planName)).toEqual(['16 GB at 11', '8 GB at 9']);
  });
});

describe('beyondDataset', () => {
  const rows = [
    { vcpus: 8, ramGb: 32, storageGb: 400, bandwidthTb: 20, unmetered: false, discontinued: false },
    { vcpus: 64, ramGb: 512, storageGb: 4000, bandwidthTb: 40, unmetered: false, discontinued: true },
    { vcpus: 4, ramGb: 8, storageGb: 100, bandwidthTb: null, unmetered: false, discontinued: false },
  ];
  const largest = { vcpus: 8, ramGb: 32, storageGb: 400, transferTb: 20, unmeteredTransfer: false };

  it('names each minimum beyond every plan still sold, with the largest figures (discontinued lines left out)', () => {
    expect(beyondDataset({ minRamGb: 64, minVcpus: 8, minTransferTb: 21 }, rows)).toEqual({
      misses: [
        { constraint: 'minRamGb', required: 64, largest: 32 },
        { constraint: 'minTransferTb', required: 21, largest: 20 },
      ],
      largest,
    });
  });

  it('is undefined when some plan reaches each minimum, and never names transfer when a plan is unmetered', () => {
    expect(beyondDataset({ minRamGb: 32, minVcpus: 8, minStorageGb: 400, minTransferTb: 20 }, rows)).toBeUndefined();
    expect(
      beyondDataset({ minTransferTb: 1000 }, [
        ...rows,
        { vcpus: 1, ramGb: 1, storageGb: 10, bandwidthTb: null, unmetered: true, discontinued: false },
      ]),
    ).toBeUndefined();
  });
});
