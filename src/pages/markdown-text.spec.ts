import markdownIt from 'markdown-it';
import { link, Markup, table, text } from './markdown-text';

/** The renderer's settings (src/pages/markdown-renderer.ts): raw HTML off, scheme links turned into links. */
const md = markdownIt({ html: false, linkify: true, typographer: false });
md.linkify.set({ fuzzyLink: false, fuzzyEmail: false, fuzzyIP: false });

describe(text.name, () => {
  const hostile = [
    '[Claim 90% off](https://evil.example)',
    '![x](https://evil.example/pixel.png)',
    'Visit https://evil.example now',
    '<https://evil.example>',
    '**Cheapest** _ever_ `code` ~~gone~~',
    'mailto:owner@evil.example',
    '<img src=x onerror=alert(1)>',
  ];

  it('renders what a catalogue says as the same text, with no link, image, emphasis or code in it', () => {
    for (const name of hostile) {
      const html = md.renderInline(text(name));
      expect({ name, html }).toEqual({ name, html: expect.not.stringMatching(/<(a|img|em|strong|code|s)\b/) });
      // The reader sees the characters the provider wrote.
      const shown = html
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&');
      expect(shown).toBe(name);
    }
  });

  it('leaves an ordinary plan name as it is', () => {
    for (const name of ['Regular Performance 2 GB / 2 vCPU', 'VPS-1', 'CX23', 'KVM 2 (12 months)'])
      expect(text(name)).toBe(name);
  });
});

describe(table.name, () => {
  it('makes every text cell inert, and keeps the links and emphasis written on purpose', () => {
    const html = md.render(
      table(
        ['Plan', 'Provider', 'Total'],
        [['[Claim](https://evil.example) | x', link('Vultr [best]', '/providers/vultr'), new Markup('**10 USD**')]],
      ),
    );
    expect(html.match(/<a [^>]*>/g)).toEqual(['<a href="/providers/vultr">']);
    expect(html).toContain('<td>[Claim](https://evil.example) | x</td>');
    expect(html).toContain('<a href="/providers/vultr">Vultr [best]</a>');
    expect(html).toContain('<strong>10 USD</strong>');
  });
});
