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
  /** Paths asked about before (scanners repeat theirs), with the answer; routes do not change once read. */
  private readonly known = new Map<string, boolean>();

  constructor(private readonly layers: () => readonly RouterLayer[]) {}

  /** True when some route (any method) matches `path`, a URL path without query. */
  matches(path: string): boolean {
    const known = this.known.get(path);
    if (known !== undefined) return known;
    const matched = this.walk(path);
    if (this.known.size < MAX_KNOWN_PATHS && path.length <= MAX_KNOWN_PATH_LENGTH) this.known.set(path, matched);
    return matched;
  }

  private walk(path: string): boolean {
    this.routes ??= this.layers().filter((layer) => layer.route !== undefined && layer.matchers !== undefined);
    try {
      for (const layer of this.routes) for (const match of layer.matchers!) if (match(path)) return true;
      return false;
    } catch {
      return true;
    }
  }
}

/** Paths remembered at most; past that, the router's matchers are asked each time. */
const MAX_KNOWN_PATHS = 1024;
/** Longer paths are not remembered. */
const MAX_KNOWN_PATH_LENGTH = 256;
