import type { UseCaseRecord } from '../dataset/dto/use-case.dto.js';
import { scaleSpec } from './workload-scale.js';

const useCase = {
  minimumSpec: { vcpus: 1, ramGb: 1, storageGb: 25, bandwidthTb: 0.5 },
  recommendedSpec: { vcpus: 2, ramGb: 4, storageGb: 80, bandwidthTb: 2 },
} as UseCaseRecord;

describe('scaleSpec', () => {
  it.each([
    [50_000, { vcpus: 1, ramGb: 1, storageGb: 25, bandwidthTb: 0.5 }],
    [50_001, { vcpus: 2, ramGb: 4, storageGb: 80, bandwidthTb: 2 }],
    [500_000, { vcpus: 2, ramGb: 4, storageGb: 80, bandwidthTb: 2 }],
    [500_001, { vcpus: 4, ramGb: 8, storageGb: 80, bandwidthTb: 2 }],
    [2_000_000, { vcpus: 4, ramGb: 8, storageGb: 80, bandwidthTb: 4 }],
    [3_000_000, { vcpus: 8, ramGb: 16, storageGb: 80, bandwidthTb: 6 }],
    [3_000_001, { vcpus: 8, ramGb: 16, storageGb: 80, bandwidthTb: 6.1 }],
  ])('sizes %d visits a month at the documented thresholds', (visits, spec) => {
    expect(scaleSpec(useCase, visits).spec).toEqual(spec);
  });

  it('says how the traffic changed the spec', () => {
    expect(scaleSpec(useCase, 30_000).note).toBe(
      '30,000 visits a month (up to 50,000) call for the minimum spec; its 0.5 TB of transfer covers 2 MB a visit.',
    );
    expect(scaleSpec(useCase, 3_000_000).note).toBe(
      '3,000,000 visits a month (over 2,000,000) call for the recommended spec with 4 times its vCPUs and RAM, and transfer raised to 6 TB a month (2 MB a visit).',
    );
  });
});
