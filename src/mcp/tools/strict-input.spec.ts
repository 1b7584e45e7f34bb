import { foldArgumentCase } from './strict-input';

describe(foldArgumentCase.name, () => {
  const valid = ['budget', 'providerId', 'minRamGb'];

  it('spells a name as the tool does when it differs only in case, and reads ids in lowercase', () => {
    expect(foldArgumentCase({ Budget: 20, PROVIDERID: 'Hetzner', minramgb: 4 }, valid)).toEqual({
      budget: 20,
      providerId: 'hetzner',
      minRamGb: 4,
    });
  });

  it('leaves a name also passed as spelled, an unknown name and "__proto__" for the strict check to refuse', () => {
    const folded = foldArgumentCase(JSON.parse('{"budget": 1, "BUDGET": 2, "region": "x", "__proto__": 3}'), valid);
    expect(Object.keys(folded as object).sort()).toEqual(['BUDGET', '__proto__', 'budget', 'region']);
    expect(Object.getPrototypeOf(folded)).toBe(Object.prototype);
  });
});
