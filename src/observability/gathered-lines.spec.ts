import { GatheredLines } from './gathered-lines.js';

describe(GatheredLines.name, () => {
  const sinkOf = () => {
    const writes: Buffer[] = [];
    return { writes, texts: () => writes.map((b) => b.toString()), sink: { write: (bytes: Buffer) => writes.push(Buffer.from(bytes)) } };
  };

  it('hands lines on in one piece when the next would not fit, in order', () => {
    const { texts, sink } = sinkOf();
    const gathered = new GatheredLines(sink, 32);
    for (const line of ['{"a":1}\n', '{"b":2}\n', '{"c":3}\n', '{"d":4}\n']) gathered.write(line);
    expect(texts()).toEqual([]);
    gathered.write('{"e":5}\n');
    expect(texts()).toEqual(['{"a":1}\n{"b":2}\n{"c":3}\n{"d":4}\n']);
    gathered.flush();
    expect(texts()).toEqual(['{"a":1}\n{"b":2}\n{"c":3}\n{"d":4}\n', '{"e":5}\n']);
  });

  it('counts bytes, not characters, so a line with non-ASCII text is written whole', () => {
    const { texts, sink } = sinkOf();
    const gathered = new GatheredLines(sink, 16);
    gathered.write('{"é":"ü"}\n');
    gathered.write('{"€":1}\n');
    gathered.flush();
    expect(texts()).toEqual(['{"é":"ü"}\n', '{"€":1}\n']);
  });

  it('hands on what it holds when flushed, and nothing when it holds nothing', () => {
    const { texts, sink } = sinkOf();
    const gathered = new GatheredLines(sink, 1024);
    gathered.flush();
    expect(texts()).toEqual([]);
    gathered.write('one\n');
    gathered.flush();
    gathered.flush();
    gathered.write('two\n');
    gathered.write('three\n');
    gathered.flush();
    expect(texts()).toEqual(['one\n', 'two\nthree\n']);
  });

  it('does not let a later line overwrite bytes already handed on', () => {
    const writes: Buffer[] = [];
    const gathered = new GatheredLines({ write: (bytes: Buffer) => writes.push(bytes) }, 8);
    gathered.write('aaaa\n');
    gathered.flush();
    gathered.write('bbbb\n');
    gathered.flush();
    expect(writes.map((b) => b.toString())).toEqual(['aaaa\n', 'bbbb\n']);
  });

  it('hands on a line longer than the buffer, or every line with a limit of 0, at once', () => {
    const { texts, sink } = sinkOf();
    new GatheredLines(sink, 4).write('a long line\n');
    const each = new GatheredLines(sink, 0);
    each.write('x\n');
    each.write('y\n');
    expect(texts()).toEqual(['a long line\n', 'x\n', 'y\n']);
  });
});
