import type { Deprecation } from '../../dataset/dto/meta.dto.js';

const toEpochSeconds = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000);

/**
 * Headers announcing deprecated fields: `Deprecation` (RFC 9745, `@<epoch seconds>`) of the
 * earliest deprecation, `Sunset` (RFC 8594) of the earliest sunset, one `Link` per document.
 */
export function deprecationHeaders(deprecations: readonly Deprecation[]): [string, string][] {
  if (deprecations.length === 0) return [];
  const earliest = (key: 'deprecatedAt' | 'sunsetAt') => deprecations.map((d) => d[key]).sort()[0];
  const links = [...new Set(deprecations.map((d) => d.link))].map((l) => `<${l}>; rel="deprecation"; type="text/html"`);
  return [
    ['Deprecation', `@${toEpochSeconds(earliest('deprecatedAt'))}`],
    ['Sunset', new Date(`${earliest('sunsetAt')}T00:00:00Z`).toUTCString()],
    ['Link', links.join(', ')],
  ];
}
