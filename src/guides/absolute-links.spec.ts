import { absoluteSiteLinks } from './absolute-links';

const BASE = 'https://vpsapi.example/prefix';

describe(absoluteSiteLinks.name, () => {
  it('makes links and images to the site root absolute on the base URL', () => {
    expect(absoluteSiteLinks('See [Hetzner](/providers/hetzner) and ![chart](/img/a.png "A chart").', BASE)).toBe(
      `See [Hetzner](${BASE}/providers/hetzner) and ![chart](${BASE}/img/a.png "A chart").`,
    );
  });

  it('leaves links to other sites, protocol-relative links, anchors and relative paths alone', () => {
    const text =
      '[a](https://example.com/x) [b](//cdn.example/x) [c](#setup) [d](other-page) [e](mailto:x@example.com)';
    expect(absoluteSiteLinks(text, BASE)).toBe(text);
  });

  it('leaves fenced code as it is, and rewrites links again after the fence closes', () => {
    const text = [
      '[a](/guides/a)',
      '```bash',
      'echo "[x](/not/a/link)"',
      '```',
      '~~~~',
      '[y](/code)',
      '~~~~',
      '[b](/guides/b)',
    ].join('\n');
    expect(absoluteSiteLinks(text, BASE)).toBe(
      [
        `[a](${BASE}/guides/a)`,
        '```bash',
        'echo "[x](/not/a/link)"',
        '```',
        '~~~~',
        '[y](/code)',
        '~~~~',
        `[b](${BASE}/guides/b)`,
      ].join('\n'),
    );
  });

  it('does not close a fence on a shorter or different marker', () => {
    const text = ['````', '```', '[x](/inside)', '````', '[y](/outside)'].join('\n');
    expect(absoluteSiteLinks(text, BASE).split('\n')).toEqual([
      '````',
      '```',
      '[x](/inside)',
      '````',
      `[y](${BASE}/outside)`,
    ]);
  });
});
