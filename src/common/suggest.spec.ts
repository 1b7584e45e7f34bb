import { didYouMean, editDistance, suggest } from './suggest.js';

describe('suggest', () => {
  it('measures the edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it.each([
    ['hetzner-cloud', ['hetzner', 'vultr', 'linode'], ['hetzner']],
    ['DigitalOcean', ['digitalocean', 'vultr'], ['digitalocean']],
    ['Singapur', ['Singapore', 'Sydney', 'São Paulo'], ['Singapore']],
    ['sao paolo', ['Singapore', 'São Paulo'], ['São Paulo']],
    ['minRam', ['minRamGb', 'minStorageGb', 'minVcpus', 'maxMonthlyPrice'], ['minRamGb']],
    ['region', ['location', 'country', 'currency'], []],
    ['aws', ['hetzner', 'vultr', 'linode'], []],
  ])('suggests for %j among %j: %j', (input, valid, expected) => {
    expect(suggest(input, valid)).toEqual(expected);
  });

  it('writes the sentence, or nothing', () => {
    expect(didYouMean('vultur', ['vultr', 'linode'])).toBe(' Did you mean "vultr"?');
    expect(didYouMean('zzz', ['vultr'])).toBe('');
  });
});
