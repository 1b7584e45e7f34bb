import { DescriptorSink, RETRY_MS } from './descriptor-sink.js';

/** A descriptor that takes at most `room` bytes per write (Infinity: all), or fails as told. */
function descriptor() {
  const d = {
    taken: [] as string[],
    room: Infinity,
    failWith: undefined as string | undefined,
    calls: 0,
    write(bytes: Buffer): number {
      d.calls++;
      if (d.failWith) throw Object.assign(new Error(d.failWith), { code: d.failWith });
      const n = Math.min(bytes.length, d.room);
      if (n === 0) throw Object.assign(new Error('EAGAIN'), { code: 'EAGAIN' });
      d.taken.push(bytes.subarray(0, n).toString());
      return n;
    },
    text: () => d.taken.join(''),
  };
  return d;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bytes = (text: string) => Buffer.from(text);

describe(DescriptorSink.name, () => {
  it('writes each batch at once, in one write, while the descriptor takes it', () => {
    const d = descriptor();
    const sink = new DescriptorSink(d.write, 1024);
    sink.write(bytes('one\n'));
    sink.write(bytes('two\n'));
    expect(d.taken).toEqual(['one\n', 'two\n']);
    expect(sink.waiting).toBe(0);
  });

  it('keeps what a full descriptor did not take, and writes it before anything newer', () => {
    const d = descriptor();
    const sink = new DescriptorSink(d.write, 1024);
    d.room = 3;
    sink.write(bytes('abcdef\n'));
    expect(d.text()).toBe('abc');
    expect(sink.waiting).toBe(4);
    d.room = 0;
    sink.write(bytes('ghi\n'));
    expect(sink.waiting).toBe(8);
    d.room = Infinity;
    sink.write(bytes('jkl\n'));
    expect(d.text()).toBe('abcdef\nghi\njkl\n');
    expect(sink.waiting).toBe(0);
    expect(sink.dropped).toBe(0);
  });

  it('offers what waits again on its own once the descriptor takes bytes again', async () => {
    const d = descriptor();
    const sink = new DescriptorSink(d.write, 1024);
    d.room = 0;
    sink.write(bytes('later\n'));
    expect(d.text()).toBe('');
    await wait(RETRY_MS * 4);
    expect(sink.waiting).toBe(6);
    d.room = Infinity;
    await wait(RETRY_MS * 6);
    expect(d.text()).toBe('later\n');
    // Nothing waits, so nothing is offered any more.
    const calls = d.calls;
    await wait(RETRY_MS * 4);
    expect(d.calls).toBe(calls);
  });

  it('drops and counts what would take the waiting bytes past their bound, and keeps the rest in order', () => {
    const d = descriptor();
    const sink = new DescriptorSink(d.write, 10);
    d.room = 0;
    sink.write(bytes('12345\n'));
    sink.write(bytes('67890\n'));
    sink.write(bytes('ab\n'));
    expect(sink.waiting).toBe(9);
    expect(sink.dropped).toBe(6);
    d.room = Infinity;
    sink.write(bytes('cd\n'));
    expect(d.text()).toBe('12345\nab\ncd\n');
  });

  it('drops everything once the descriptor fails (a closed pipe), and stops writing to it', () => {
    const d = descriptor();
    const sink = new DescriptorSink(d.write, 1024);
    d.room = 0;
    sink.write(bytes('waiting\n'));
    d.failWith = 'EPIPE';
    sink.write(bytes('next\n'));
    expect(sink.dropped).toBe(13);
    expect(sink.waiting).toBe(0);
    const calls = d.calls;
    sink.write(bytes('more\n'));
    sink.flushSync(50);
    expect(d.calls).toBe(calls);
    expect(sink.dropped).toBe(18);
  });

  it('at exit, writes what waits as soon as the descriptor takes it', () => {
    let refusals = 3;
    const taken: string[] = [];
    const sink = new DescriptorSink((b) => {
      if (refusals-- > 0) throw Object.assign(new Error('EAGAIN'), { code: 'EAGAIN' });
      taken.push(b.toString());
      return b.length;
    }, 1024);
    sink.write(bytes('last line\n'));
    sink.flushSync(1000);
    expect(taken).toEqual(['last line\n']);
    expect(sink.dropped).toBe(0);
  });

  it('at exit, gives up on a descriptor that takes nothing within the deadline, and counts the loss', () => {
    const d = descriptor();
    const sink = new DescriptorSink(d.write, 1024);
    d.room = 0;
    sink.write(bytes('never read\n'));
    const started = Date.now();
    sink.flushSync(60);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(sink.dropped).toBe(11);
    expect(sink.waiting).toBe(0);
  });
});
