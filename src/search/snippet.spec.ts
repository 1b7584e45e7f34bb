import { plainText, snippet } from './snippet';

describe('plainText', () => {
  it('keeps what a reader sees', () => {
    expect(
      plainText(
        '## Setup\n\nRun `ufw enable`, see [the guide](/guides/x) and **reboot**.\n\n```bash\nsecret\n```\n- item',
      ),
    ).toBe('Setup Run ufw enable, see the guide and reboot. item');
  });
});

describe('plainText markers', () => {
  it.each([
    ['an indented bullet', 'intro\n  - nested item', 'intro nested item'],
    ['a numbered step past nine', '10. tenth step', 'tenth step'],
    ['a heading', '###   Spaced heading', 'Spaced heading'],
    ['a quote and a table row', '> quoted\n| a | b |', 'quoted a b'],
    ['a number that opens a line', '1.5 GB of RAM', '1.5 GB of RAM'],
    ['a hash without a space', '#hashtag', '#hashtag'],
    ['a dash inside a line', 'price - value', 'price - value'],
    ['an indented quote', 'intro\n  > quoted', 'intro quoted'],
    ['a quote mark without a space', '>quoted', 'quoted'],
  ])('handles %s', (_name, markdown, text) => {
    expect(plainText(markdown)).toBe(text);
  });

  it('keeps words on either side of a code block apart and trims the ends', () => {
    expect(plainText('\n\nbefore```code```after\n')).toBe('before after');
  });
});

describe('snippet', () => {
  const text = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ') + ' WireGuard tunnels ' + 'tail '.repeat(50);

  it('centres on the earliest matched term, cut at words, with ellipses', () => {
    const s = snippet(text, ['wireguard', 'tunnels'], 120);
    expect(s).toContain('WireGuard tunnels');
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(s.length).toBeLessThanOrEqual(122);
    expect(s).toMatch(/^…word\d+ /);
  });

  it('opens the text when nothing matches', () => {
    expect(snippet('short text', ['zzz'])).toBe('short text');
  });
});

describe('snippet cuts', () => {
  // Words of four characters with their space, so positions are easy to reason about: wNN starts at 4 * NN.
  const words = Array.from({ length: 60 }, (_, i) => `w${String(i).padStart(2, '0')}`).join(' ');

  it('centres on the earliest term in the text, whatever the order the terms were given in', () => {
    // w30 at 120; the start is 120 - 14 = 106, inside w26, so it moves to w27; the end, 108 + 42 = 150, inside w37, moves back to w36.
    const passage = '…w27 w28 w29 w30 w31 w32 w33 w34 w35 w36…';
    expect(snippet(words, ['w50', 'w30'], 42)).toBe(passage);
    expect(snippet(words, ['w30', 'w50'], 42)).toBe(passage);
    expect(snippet(words, ['zzz', 'W50', 'W30'], 42)).toBe(passage);
    expect(snippet(words, ['w30', 'zzz'], 42)).toBe(passage);
  });

  it('opens the text without a leading ellipsis when the term is near the start or nothing matches', () => {
    const opening = 'w00 w01 w02 w03 w04 w05 w06 w07 w08 w09…';
    expect(snippet(words, ['w02'], 42)).toBe(opening);
    expect(snippet(words, ['zzz'], 42)).toBe(opening);
  });

  it('ends without a trailing ellipsis when the passage reaches the end of the text', () => {
    // w58 at 232; the start, 218, is inside w54 and moves to w55; the end is the end of the text.
    expect(snippet(words, ['w58'], 42)).toBe('…w55 w56 w57 w58 w59');
  });

  it('moves the start past a partial word of up to 20 characters', () => {
    // "wireguard" at 51; the start, 51 - 21 = 30, is 20 characters before the space at 50.
    const text = `${'x'.repeat(50)} wireguard ${words}`;
    expect(snippet(text, ['wireguard'], 63)).toBe('…wireguard w00 w01 w02 w03 w04 w05 w06 w07 w08 w09 w10 w11 w12…');
  });

  it('cuts inside a word longer than 20 characters rather than drop the text before the term', () => {
    // The start, 51 - 22 = 29, is 21 characters before the space at 50: the cut stays where it fell.
    const text = `${'x'.repeat(50)} wireguard ${words}`;
    expect(snippet(text, ['wireguard'], 66)).toBe(`…${'x'.repeat(21)} wireguard w00 w01 w02 w03 w04 w05 w06 w07…`);
  });

  it('keeps the cut where it fell when no space follows it', () => {
    // "wireguard" at 16 inside the last word; the start, 16 - 10 = 6, has no space after it.
    expect(snippet(`intro ${'x'.repeat(10)}wireguard`, ['wireguard'], 30)).toBe(`…${'x'.repeat(10)}wireguard`);
  });

  it('cuts inside the last word when ending at a space would keep half the passage or less', () => {
    const text = `short ${'y'.repeat(100)}`;
    // The last space, at 5, is exactly half of a 10-character passage: too short a passage to keep.
    expect(snippet(text, ['short'], 10)).toBe('short yyyy…');
    expect(snippet(text, ['short'], 40)).toBe(`short ${'y'.repeat(34)}…`);
  });

  it('keeps a text that exactly fits the passage whole, without ellipses', () => {
    expect(snippet('alpha beta gamma', ['alpha'], 16)).toBe('alpha beta gamma');
  });

  it('trims the spaces around the passage', () => {
    expect(snippet('  hello world  ', ['zzz'])).toBe('hello world');
  });

  it('starts at the term itself when the passage is shorter than three characters', () => {
    // 2 / 3 rounds down to no context before the term.
    expect(snippet(' ab', ['ab'], 2)).toBe('…ab');
  });
});
