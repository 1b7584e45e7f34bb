import { countWords, readTimeMinutes } from './word-count';

describe('countWords', () => {
  it('counts words, not markup', () => {
    expect(countWords('## Setup\n\nRun `apt-get update`, then **reboot** the server.')).toBe(8);
  });
  it('keeps contractions and hyphenated words whole', () => {
    expect(countWords("Don't over-provision the box.")).toBe(4);
  });
  it('is zero for empty text', () => {
    expect(countWords('  \n')).toBe(0);
  });
});

describe('readTimeMinutes', () => {
  it('rounds at 230 words a minute and is at least one', () => {
    expect(readTimeMinutes(0)).toBe(1);
    expect(readTimeMinutes(345)).toBe(2);
    expect(readTimeMinutes(920)).toBe(4);
  });
});
