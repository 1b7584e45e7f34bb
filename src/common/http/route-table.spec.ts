import { RouteTable, type RouterLayer } from './route-table';

/** A router of two routes whose matchers count how often they are asked. */
function router() {
  const asked: string[] = [];
  const layer = (pattern: RegExp): RouterLayer => ({ route: {}, matchers: [(path: string) => (asked.push(path), pattern.test(path))] });
  const layers = [layer(/^\/api\/providers\.json$/), layer(/^\/providers\/[a-z]+$/), { matchers: [() => true] }];
  return { table: new RouteTable(() => layers), asked };
}

describe(RouteTable.name, () => {
  it('answers from the routes, not from middleware layers', () => {
    const { table } = router();
    expect(table.matches('/api/providers.json')).toBe(true);
    expect(table.matches('/providers/hetzner')).toBe(true);
    expect(table.matches('/wp-login.php')).toBe(false);
  });

  it('asks the matchers once for a path it has seen', () => {
    const { table, asked } = router();
    expect(table.matches('/wp-login.php')).toBe(false);
    const first = asked.length;
    expect(table.matches('/wp-login.php')).toBe(false);
    expect(table.matches('/providers/hetzner')).toBe(true);
    const afterSecondPath = asked.length;
    expect(table.matches('/providers/hetzner')).toBe(true);
    expect(asked.length).toBe(afterSecondPath);
    expect(first).toBe(2);
  });

  it('remembers at most 1024 paths, and none longer than 256 characters, still answering every one', () => {
    const { table, asked } = router();
    for (let i = 0; i < 1024; i++) table.matches(`/probe-${i}`);
    const before = asked.length;
    expect(table.matches('/probe-0')).toBe(false);
    expect(asked.length).toBe(before);
    expect(table.matches('/probe-new')).toBe(false);
    expect(table.matches('/probe-new')).toBe(false);
    expect(asked.length).toBe(before + 4);
    const { table: fresh, asked: freshAsked } = router();
    const long = `/${'x'.repeat(256)}`;
    fresh.matches(long);
    fresh.matches(long);
    expect(freshAsked.length).toBe(4);
  });

  it('counts a path the matchers cannot decode as routed, so the router answers it', () => {
    const table = new RouteTable(() => [{ route: {}, matchers: [() => { throw new URIError('bad'); }] }]);
    expect(table.matches('/%E0%A4%A')).toBe(true);
  });
});
