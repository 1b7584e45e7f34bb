/**
 * Documents change only with the dataset; five minutes of caching keeps clients fresh after a
 * release while sparing the API most repeat requests. Revalidation with ETags is cheap (304).
 */
export const CACHE_CONTROL = 'public, max-age=300';

/** `YYYY-MM-DD` as an HTTP-date at midnight UTC. */
export function httpDate(day: string): string {
  return new Date(`${day}T00:00:00Z`).toUTCString();
}
