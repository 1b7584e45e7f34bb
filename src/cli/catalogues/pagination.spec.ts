import { CatalogueFormatError } from './catalogue-format-error';
import { laterPageNumber, newCursor, readAllPages } from './pagination';

describe('readAllPages', () => {
  it('reads page after page until one names no next page, in order', async () => {
    const asked: number[] = [];
    const read = await readAllPages('t', { first: 1, maxPages: 10, isLater: laterPageNumber }, async (page) => {
      asked.push(page);
      return { items: [`a${page}`, `b${page}`], next: page < 3 ? page + 1 : undefined };
    });
    expect(read).toEqual({ items: ['a1', 'b1', 'a2', 'b2', 'a3', 'b3'], pages: 3 });
    expect(asked).toEqual([1, 2, 3]);
  });

  it('refuses a next page that does not move forward', async () => {
    await expect(
      readAllPages('t', { first: 2, maxPages: 10, isLater: laterPageNumber }, async () => ({ items: [], next: 2 })),
    ).rejects.toThrow(CatalogueFormatError);
    await expect(
      readAllPages('t', { first: 2, maxPages: 10, isLater: laterPageNumber }, async () => ({ items: [], next: 1 })),
    ).rejects.toThrow(/names 1 as the next page/);
  });

  it('refuses a cursor it followed before', async () => {
    const cursors = [undefined, 'x', 'y', 'x'];
    await expect(
      readAllPages<string | undefined>(
        't',
        { first: undefined, maxPages: 10, isLater: newCursor },
        async (_c, page) => ({ items: [], next: cursors[page] }),
      ),
    ).rejects.toThrow(/"x" as the next page, which repeats one/);
  });

  it('stops a list that keeps naming next pages at maxPages', async () => {
    let asked = 0;
    await expect(
      readAllPages('t', { first: 1, maxPages: 4, isLater: laterPageNumber }, async (page) => {
        asked++;
        return { items: [page], next: page + 1 };
      }),
    ).rejects.toThrow(/still a next page after 4 pages/);
    expect(asked).toBe(4);
  });
});
