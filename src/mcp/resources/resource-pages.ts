import { ProtocolError, ProtocolErrorCode, type McpServer, type Resource } from '@modelcontextprotocol/server';

/** Most resources in one resources/list answer; the rest follow by `nextCursor`. */
export const RESOURCE_PAGE_SIZE = 50;

/** Where a page starts, for the list of one dataset version. */
interface Position {
  version: string;
  offset: number;
}

/** The cursor of the page at `position`: opaque to clients (base64url of a small JSON object). */
export const encodeCursor = (position: Position): string =>
  Buffer.from(JSON.stringify([position.version, position.offset])).toString('base64url');

/** Where `cursor` points, or undefined for a cursor this server did not write. */
export function decodeCursor(cursor: string): Position | undefined {
  if (cursor.length > 200 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const [version, offset] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof version !== 'string' || !Number.isSafeInteger(offset) || (offset as number) <= 0) return undefined;
    return { version, offset: offset as number };
  } catch {
    return undefined;
  }
}

const invalidCursor = (detail: string) =>
  new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for resources/list: cursor: ${detail}`);

/**
 * One page of `resources` for the request's cursor: at most RESOURCE_PAGE_SIZE, with `nextCursor`
 * when more follow. A cursor names the dataset version it was written for, so a list that changed
 * under a client (a reload) is refused rather than paged with gaps or repeats; so is a cursor this
 * server never wrote or one past the end. Both are -32602 with what to do.
 */
export function resourcePage(
  resources: readonly Resource[],
  version: string,
  cursor: string | undefined,
): { resources: Resource[]; nextCursor?: string } {
  let offset = 0;
  if (cursor !== undefined) {
    const position = decodeCursor(cursor);
    if (!position)
      throw invalidCursor(
        'not a cursor from this server; call resources/list without a cursor and pass back the nextCursor it returns.',
      );
    if (position.version !== version)
      throw invalidCursor(
        `written for dataset version ${position.version}, now ${version}; list again from the start.`,
      );
    if (position.offset >= resources.length)
      throw invalidCursor('past the end of the list; list again from the start.');
    offset = position.offset;
  }
  const end = offset + RESOURCE_PAGE_SIZE;
  const page = resources.slice(offset, end);
  return end < resources.length
    ? { resources: page, nextCursor: encodeCursor({ version, offset: end }) }
    : { resources: page };
}

/** Replaces the SDK's resources/list (one answer with every resource) with pages of RESOURCE_PAGE_SIZE. */
export function paginateResourceList(
  server: McpServer,
  list: () => { version: string; resources: readonly Resource[] },
): void {
  server.server.setRequestHandler('resources/list', (request) => {
    const { version, resources } = list();
    return resourcePage(resources, version, request.params?.cursor);
  });
}
