import { plainText, snippet } from './snippet';

describe('plainText', () => {
  it('keeps what a reader sees', () => {
    expect(plainText('## Setup\n\nRun `ufw enable`, see [the guide](/guides/x) and **reboot**.\n\n```bash\nsecret\n```\n- item')).toBe(
      'Setup Run ufw enable, see the guide and reboot. item',
    );
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
    expect(s).not.toMatch(/…\S*ord\d\b(?<!word\d+)/);
  });

  it('opens the text when nothing matches', () => {
    expect(snippet('short text', ['zzz'])).toBe('short text');
  });
});
