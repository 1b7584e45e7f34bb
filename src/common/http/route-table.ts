/** What the route table reads of a layer of Express's router: a route's path matchers. */
export interface RouterLayer {
  route?: unknown;
  matchers?: readonly ((path: string) => unknown)[];
}

/**
 * Whether any route of Express's router matches a path, asked before the router runs. Read from the
 * router itself (after the application registered its routes), so it never disagrees with it; a path
 * the router's matchers cannot decode (malformed percent-encoding) counts as routed, so the router
 * answers it (400).
 */
export class RouteTable {
  private routes?: readonly RouterLayer[];

  constructor(private readonly layers: () => readonly RouterLayer[]) {}

  /** True when some route (any method) matches `path`, a URL path without query. */
  matches(path: string): boolean {
    this.routes ??= this.layers().filter((layer) => layer.route !== undefined && layer.matchers !== undefined);
    try {
      for (const layer of this.routes) for (const match of layer.matchers!) if (match(path)) return true;
      return false;
    } catch {
      return true;
    }
  }
}
