/** Methods every `/api/` resource answers. */
export const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;
export const ALLOW_READ = READ_METHODS.join(', ');

/** True for paths of the JSON API, where errors are always the JSON envelope. */
export function isApiPath(url: string): boolean {
  return url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
}
