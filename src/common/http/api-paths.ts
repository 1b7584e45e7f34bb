/** Methods every `/api/` resource answers. */
export const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;
export const ALLOW_READ = READ_METHODS.join(', ');

/**
 * True for paths of the JSON API, where errors are always the JSON envelope. Case-insensitive: a
 * client asking for /API/... is an API client, even though the path itself is not served.
 */
export function isApiPath(url: string): boolean {
  const start = url.slice(0, 5).toLowerCase();
  return start === '/api' || start === '/api/' || start === '/api?';
}
