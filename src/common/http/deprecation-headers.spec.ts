import { deprecationHeaders } from './deprecation-headers';

describe('deprecationHeaders', () => {
  it('sends nothing when no deprecated field is carried', () => {
    expect(deprecationHeaders([])).toEqual([]);
  });

  it('writes RFC 9745 Deprecation, an HTTP-date Sunset and a deprecation Link', () => {
    expect(
      deprecationHeaders([
        {
          field: 'Provider.affiliateUrl',
          deprecatedAt: '2026-03-01',
          sunsetAt: '2026-09-01',
          link: 'https://x.test/a',
        },
      ]),
    ).toEqual([
      ['Deprecation', `@${Date.UTC(2026, 2, 1) / 1000}`],
      ['Sunset', 'Tue, 01 Sep 2026 00:00:00 GMT'],
      ['Link', '<https://x.test/a>; rel="deprecation"; type="text/html"'],
    ]);
  });

  it('announces the earliest dates and every distinct link', () => {
    const headers = deprecationHeaders([
      { field: 'Provider.a', deprecatedAt: '2026-05-01', sunsetAt: '2026-12-01', link: 'https://x.test/a' },
      { field: 'Plan.b', deprecatedAt: '2026-03-01', sunsetAt: '2026-10-01', link: 'https://x.test/b' },
      { field: 'Plan.c', deprecatedAt: '2026-04-01', sunsetAt: '2026-11-01', link: 'https://x.test/b' },
    ]);
    expect(headers).toEqual([
      ['Deprecation', `@${Date.UTC(2026, 2, 1) / 1000}`],
      ['Sunset', 'Thu, 01 Oct 2026 00:00:00 GMT'],
      [
        'Link',
        '<https://x.test/a>; rel="deprecation"; type="text/html", <https://x.test/b>; rel="deprecation"; type="text/html"',
      ],
    ]);
  });
});
