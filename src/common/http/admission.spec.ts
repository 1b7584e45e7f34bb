import { loadConfig } from '../../config/load-config';
import { AdmissionPolicy, HSTS, isAdmissionExempt, isSecure, pathOf, type RequestFacts } from './admission';

const config = (env: Record<string, string> = {}) => loadConfig({ PUBLIC_BASE_URL: 'https://vpsapi.example', METRICS_PORT: '0', ...env });
const under = { limit: 600, remaining: 10, resetSeconds: 30, limited: false };
const over = { ...under, remaining: 0, limited: true };
const facts = (overrides: Partial<RequestFacts> = {}): RequestFacts => ({
  method: 'GET',
  url: '/api/providers.json?x=1',
  secure: true,
  malformed: false,
  limit: under,
  unavailable: undefined,
  ...overrides,
});

describe(AdmissionPolicy.name, () => {
  const plain = new AdmissionPolicy(config());
  const https = new AdmissionPolicy(config({ REQUIRE_HTTPS: 'true' }));

  it.each<[string, AdmissionPolicy, Partial<RequestFacts>, string, Record<string, unknown>]>([
    ['serves an ordinary request', plain, {}, 'serve', { hsts: false }],
    ['serves with HSTS when HTTPS is required and used', https, {}, 'serve', { hsts: true }],
    ['refuses a client over its limit with 429 before anything else', https, { limit: over, secure: false, malformed: true, unavailable: 'draining' }, 'refuse', { hsts: false, closeConnection: false }],
    ['refuses an unroutable target with 400, keeping the connection', plain, { malformed: true, unavailable: 'maintenance' }, 'refuse', { hsts: false, closeConnection: false }],
    ['redirects plain HTTP to the public host when HTTPS is required, before a 503', https, { secure: false, unavailable: 'maintenance' }, 'redirect', { location: 'https://vpsapi.example/api/providers.json?x=1' }],
    ['does not redirect plain HTTP when HTTPS is not required', plain, { secure: false }, 'serve', { hsts: false }],
    ['refuses while in maintenance with 503, keeping the connection', https, { unavailable: 'maintenance' }, 'refuse', { hsts: true, closeConnection: false }],
    ['refuses while draining with 503 and asks the client to reconnect elsewhere', plain, { unavailable: 'draining' }, 'refuse', { closeConnection: true }],
    ['answers an OPTIONS preflight', plain, { method: 'OPTIONS' }, 'preflight', { hsts: false }],
    ['refuses a preflight while starting', plain, { method: 'OPTIONS', unavailable: 'starting' }, 'refuse', {}],
  ])('%s', (_name, policy, given, kind, expected) => {
    const decision = policy.decide(facts(given));
    expect(decision).toMatchObject({ kind, ...expected });
  });

  it('names the problem of each refusal', () => {
    expect(plain.decide(facts({ limit: over }))).toMatchObject({ problem: { status: 429, code: 'rate_limited' } });
    expect(plain.decide(facts({ malformed: true }))).toMatchObject({ problem: { status: 400, code: 'bad_request' } });
    expect(plain.decide(facts({ unavailable: 'maintenance' }))).toMatchObject({ problem: { status: 503, code: 'service_unavailable' } });
  });

  it('redirects to the configured host, never a path-less or absolute target', () => {
    expect(https.decide(facts({ secure: false, url: '//evil.example/x' }))).toEqual({ kind: 'redirect', location: 'https://vpsapi.example//evil.example/x' });
    expect(https.decide(facts({ secure: false, url: 'http://evil.example/' }))).toEqual({ kind: 'redirect', location: 'https://vpsapi.example/' });
  });

  it('gives the MCP endpoint its own preflight headers, whatever the query', () => {
    const mcp = plain.decide(facts({ method: 'OPTIONS', url: '/mcp?session=x' }));
    const api = plain.decide(facts({ method: 'OPTIONS', url: '/api/index.json' }));
    expect(mcp.kind === 'preflight' && Object.fromEntries(mcp.headers)['Allow']).toBe('POST, OPTIONS');
    expect(api.kind === 'preflight' && Object.fromEntries(api.headers)['Allow']).toBe('GET, HEAD, OPTIONS');
  });
});

describe('admission helpers', () => {
  it('sends HSTS for a year, subdomains included', () => {
    expect(HSTS).toBe('max-age=31536000; includeSubDomains');
  });


  it('reads the path of a target without its query', () => {
    expect([pathOf('/api/x.json?a=1&b=2'), pathOf('/api/x.json'), pathOf('/?')]).toEqual(['/api/x.json', '/api/x.json', '/']);
  });

  it('exempts exactly the orchestrator probes', () => {
    expect(['/healthz', '/readyz'].every(isAdmissionExempt)).toBe(true);
    expect(['/healthz/', '/api/index.json', '/metrics', '/'].some(isAdmissionExempt)).toBe(false);
  });

  const request = (encrypted: boolean, remoteAddress: string, proto?: string) =>
    ({ socket: { encrypted, remoteAddress }, headers: proto === undefined ? {} : { 'x-forwarded-proto': proto } }) as never;
  const trustLoopback = (addr: string) => addr === '127.0.0.1';

  it.each([
    [true, '203.0.113.9', undefined, true],
    [false, '127.0.0.1', 'https', true],
    [false, '127.0.0.1', 'https, http', true],
    [false, '127.0.0.1', 'https ,http', true],
    [false, '127.0.0.1', 'http, https', false],
    [false, '203.0.113.9', 'https', false],
    [false, '127.0.0.1', undefined, false],
  ])('reads encrypted=%s from %s with X-Forwarded-Proto %s as secure=%s', (encrypted, address, proto, secure) => {
    expect(isSecure(request(encrypted, address, proto), trustLoopback)).toBe(secure);
  });
});
