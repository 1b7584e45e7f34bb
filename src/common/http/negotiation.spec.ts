import type { IncomingMessage } from 'node:http';
import { byAccept, errorForm, prefersMarkdown } from './negotiation';

const req = (accept?: string) => ({ headers: accept === undefined ? {} : { accept } }) as IncomingMessage;

describe('negotiation', () => {
  it.each([
    [undefined, 'html', false],
    ['*/*', 'html', false],
    ['text/html', 'html', false],
    ['application/json', 'json', false],
    ['text/markdown', 'markdown', true],
    ['text/html;q=0.5, text/markdown', 'markdown', true],
    ['text/markdown;q=0.1, text/html', 'html', false],
    ['application/json;q=0.9, text/markdown;q=0.8', 'json', true],
  ])(
    'reads Accept %p as the %s error form (markdown page preferred: %p), the same when asked again',
    (accept, form, markdown) => {
      for (let i = 0; i < 2; i++) {
        expect(errorForm(req(accept))).toBe(form);
        expect(prefersMarkdown(req(accept))).toBe(markdown);
      }
    },
  );

  it('negotiates a repeated Accept value once, keeping at most 256 values and none over 512 characters', () => {
    const seen: (string | undefined)[] = [];
    const negotiate = byAccept((r) => (seen.push(r.headers.accept), r.headers.accept?.length ?? 0));
    negotiate(req('text/html'));
    negotiate(req('text/html'));
    negotiate(req());
    negotiate(req());
    expect(seen).toEqual(['text/html', undefined]);
    for (let i = 0; i < 300; i++) negotiate(req(`text/x-${i}`));
    seen.length = 0;
    negotiate(req('text/x-0'));
    negotiate(req('text/x-299'));
    negotiate(req('text/x-299'));
    expect(seen).toEqual(['text/x-299', 'text/x-299']);
    const long = `text/html, ${'a'.repeat(512)}`;
    const other = byAccept((r) => (seen.push(r.headers.accept), 1));
    seen.length = 0;
    other(req(long));
    other(req(long));
    expect(seen).toHaveLength(2);
  });
});
