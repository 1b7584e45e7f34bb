import { ANSWER_LIMITS, pick, structuredWithin } from './response-format.js';

describe(structuredWithin.name, () => {
  const textOf = (r: ReturnType<typeof structuredWithin>) => (r.content[0] as { text: string }).text;
  const items = (n: number, size: number) => Array.from({ length: n }, (_, i) => ({ i, pad: 'x'.repeat(size) }));

  it('answers a list that fits whole, with no truncated field', () => {
    const r = structuredWithin({ list: items(3, 10), responseFormat: 'concise' }, 'list', 'concise');
    expect(r.structuredContent).toEqual({ list: items(3, 10), responseFormat: 'concise' });
    expect(JSON.parse(textOf(r))).toEqual(r.structuredContent);
  });

  it.each(['concise', 'detailed'] as const)(
    'cuts a %s list from the end until the text fits its limit, and counts what it left out',
    (format) => {
      const limit = ANSWER_LIMITS[format];
      const list = items(40, Math.ceil(limit / 30));
      const r = structuredWithin({ list, responseFormat: format }, 'list', format);
      const data = r.structuredContent as { list: unknown[]; truncated: { omitted: number; reason: string } };
      expect(textOf(r).length).toBeLessThanOrEqual(limit);
      expect(data.list).toEqual(list.slice(0, data.list.length));
      expect(data.truncated.omitted).toBe(40 - data.list.length);
      expect(data.truncated.reason).toContain(limit.toLocaleString('en-US'));
      // One more item would not have fitted.
      expect(JSON.stringify({ ...data, list: list.slice(0, data.list.length + 1) }).length).toBeGreaterThan(limit);
    },
  );

  it('keeps only the named fields, in their order, leaving out absent ones', () => {
    expect(
      pick({ a: 1, b: undefined, c: 3, d: 4 } as { a: number; b?: number; c: number; d: number }, ['c', 'b', 'a']),
    ).toEqual({ c: 3, a: 1 });
    expect(Object.keys(pick({ a: 1, c: 3 }, ['c', 'a']))).toEqual(['c', 'a']);
  });
});
