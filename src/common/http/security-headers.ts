import helmet from 'helmet';

/**
 * The security headers helmet sets, computed once at start and applied with the other common headers
 * (helmet as a middleware would rebuild them for every request). Settings for a public API that also
 * serves pages and Swagger UI: resources may be read cross-origin (CORS is open on purpose), nothing
 * may frame the pages, MIME types are not sniffed, referrers are trimmed. Content-Security-Policy is
 * set per document (pages, /docs) and Strict-Transport-Security only on HTTPS answers, both elsewhere.
 */
export function securityHeaders(): [string, string][] {
  const headers: [string, string][] = [];
  const collector = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  helmet({
    contentSecurityPolicy: false,
    strictTransportSecurity: false,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
  })({} as never, collector as never, () => undefined);
  return headers;
}
