import { GatheredLines } from './gathered-lines.js';

describe(GatheredLines.name, () => {
  const sinkOf = () => {
    const writes: string[] = [];
    return { writes, sink: { write: (text: string) => writes.push(text) } };
  };

  it('hands lines on in one piece once they reach the limit, in order', () => {
    const { writes, sink } = sinkOf();
    const gathered = new GatheredLines(sink, 30);
    gathered.write('{"a":1}\n');
    gathered.write('{"b":2}\n');
    gathered.write('{"c":3}\n');
    expect(writes).toEqual([]);
    gathered.write('{"d":4}\n');
    expect(writes).toEqual(['{"a":1}\n{"b":2}\n{"c":3}\n{"d":4}\n']);
    gathered.write('{"e":5}\n');
    expect(writes).toHaveLength(1);
  });

  it('hands on what it holds when flushed, and nothing when it holds nothing', () => {
    const { writes, sink } = sinkOf();
    const gathered = new GatheredLines(sink, 1 << 20);
    gathered.flush();
    expect(writes).toEqual([]);
    gathered.write('one\n');
    gathered.flush();
    gathered.flush();
    gathered.write('two\n');
    gathered.write('three\n');
    gathered.flush();
    expect(writes).toEqual(['one\n', 'two\nthree\n']);
  });

  it('hands on a line longer than the limit at once', () => {
    const { writes, sink } = sinkOf();
    const gathered = new GatheredLines(sink, 4);
    gathered.write('a long line\n');
    expect(writes).toEqual(['a long line\n']);
  });
});
