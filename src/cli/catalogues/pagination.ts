import { CatalogueFormatError } from './catalogue-format-error.js';

/** One page of a list as an adapter reads it: its items, and the position of the next page (undefined on the last). */
export interface ListPage<Position> {
  items: unknown[];
  next?: Position;
}

/**
 * Reads every page of a paginated catalogue list, the one loop of the adapters: `readPage` asks for the
 * page at a position (a page number, or an opaque cursor) and says where the next one is; the list ends
 * on a page that names none. A next position that is not later than every one followed (`isLater`), or
 * a list longer than `maxPages`, is a format error: a catalogue whose pagination does not end would
 * otherwise be read for ever, or end up looking like retired plans.
 */
export async function readAllPages<Position>(
  where: string,
  options: { first: Position; maxPages: number; isLater: (next: Position, followed: readonly Position[]) => boolean },
  readPage: (position: Position, page: number) => Promise<ListPage<Position>>,
): Promise<{ items: unknown[]; pages: number }> {
  const items: unknown[] = [];
  const followed: Position[] = [];
  let position = options.first;
  for (let pages = 1; ; pages++) {
    followed.push(position);
    const { items: more, next } = await readPage(position, pages);
    items.push(...more);
    if (next === undefined) return { items, pages };
    if (!options.isLater(next, followed))
      throw new CatalogueFormatError(
        `${where}: page ${pages} names ${JSON.stringify(next)} as the next page, which repeats one already followed or comes before it`,
      );
    if (pages >= options.maxPages)
      throw new CatalogueFormatError(`${where}: still a next page after ${options.maxPages} pages`);
    position = next;
  }
}

/** `isLater` for numbered pages: the next page number is above the last one read. */
export const laterPageNumber = (next: number, followed: readonly number[]) =>
  Number.isInteger(next) && next > followed[followed.length - 1];

/** `isLater` for opaque cursors: a cursor not followed before. */
export const newCursor = <C>(next: C, followed: readonly C[]) => !followed.includes(next);
