import { rateLimitHeaders } from './rate-limit-headers';

describe('rateLimitHeaders', () => {
  it('gives the four RateLimit headers in order, with the policy of the window', () => {
    expect(rateLimitHeaders({ limit: 3, remaining: 1, resetSeconds: 42, limited: false }, 60)).toEqual([
      ['RateLimit-Limit', '3'],
      ['RateLimit-Remaining', '1'],
      ['RateLimit-Reset', '42'],
      ['RateLimit-Policy', '3;w=60'],
    ]);
  });

  it('adds Retry-After only when the count is over the limit', () => {
    expect(rateLimitHeaders({ limit: 3, remaining: 0, resetSeconds: 7, limited: true }, 60)).toContainEqual([
      'Retry-After',
      '7',
    ]);
    expect(
      rateLimitHeaders({ limit: 3, remaining: 0, resetSeconds: 7, limited: false }, 60).map(([name]) => name),
    ).not.toContain('Retry-After');
  });
});
