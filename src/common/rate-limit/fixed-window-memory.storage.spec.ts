import { FixedWindowMemoryStorage } from './fixed-window-memory.storage';

describe(FixedWindowMemoryStorage.name, () => {
  let now: number;
  let storage: FixedWindowMemoryStorage;
  beforeEach(() => {
    now = 1_000_000;
    storage = new FixedWindowMemoryStorage(() => now);
  });
  afterEach(() => storage.close());

  it('counts hits per key within a window and reports the seconds left', async () => {
    expect(await storage.increment('a', 60_000, 2, 60_000, 'default')).toEqual({
      totalHits: 1,
      timeToExpire: 60,
      isBlocked: false,
      timeToBlockExpire: 0,
    });
    now += 15_500;
    expect(await storage.increment('a', 60_000, 2, 60_000, 'default')).toMatchObject({
      totalHits: 2,
      timeToExpire: 45,
      isBlocked: false,
    });
    expect(await storage.increment('a', 60_000, 2, 60_000, 'default')).toMatchObject({
      totalHits: 3,
      isBlocked: true,
      timeToBlockExpire: 45,
    });
    expect(await storage.increment('b', 60_000, 2, 60_000, 'default')).toMatchObject({
      totalHits: 1,
      isBlocked: false,
    });
  });

  it('starts a new window when the old one has ended, never later', async () => {
    for (let i = 0; i < 5; i++) await storage.increment('a', 1000, 2, 1000, 'default');
    now += 999;
    expect(await storage.increment('a', 1000, 2, 1000, 'default')).toMatchObject({ totalHits: 6, timeToExpire: 1 });
    now += 1;
    expect(await storage.increment('a', 1000, 2, 1000, 'default')).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('keeps throttlers apart', async () => {
    await storage.increment('a', 1000, 2, 1000, 'one');
    expect(await storage.increment('a', 1000, 2, 1000, 'two')).toMatchObject({ totalHits: 1 });
  });

  it('sweeps ended windows so memory follows the live clients', async () => {
    await storage.increment('a', 1000, 2, 1000, 'default');
    await storage.increment('b', 5000, 2, 5000, 'default');
    now += 2000;
    storage.sweep();
    expect(storage.size).toBe(1);
  });
});

describe(`${FixedWindowMemoryStorage.name} on its own schedule`, () => {
  // The real clock, faked: the sweeper's setInterval and the storage's Date.now advance together,
  // so the test sees what a server sees when nobody calls sweep().
  let storage: FixedWindowMemoryStorage;
  beforeEach(() => {
    jest.useFakeTimers({ now: 1_000_000 });
    storage = new FixedWindowMemoryStorage();
  });
  afterEach(() => {
    storage.close();
    jest.useRealTimers();
  });

  it('forgets idle clients once their window has ended, without anyone calling sweep()', async () => {
    for (const client of ['a', 'b', 'c']) await storage.increment(client, 1000, 2, 1000, 'default');
    expect(storage.size).toBe(3);
    jest.advanceTimersByTime(999);
    expect(storage.size).toBe(3);
    jest.advanceTimersByTime(1001);
    expect(storage.size).toBe(0);
  });

  it('keeps a client that is still inside its window when the sweeper runs', async () => {
    await storage.increment('idle', 1000, 2, 1000, 'default');
    jest.advanceTimersByTime(500);
    await storage.increment('active', 1000, 2, 1000, 'default');
    jest.advanceTimersByTime(600);
    expect(storage.size).toBe(1);
    expect(await storage.increment('active', 1000, 2, 1000, 'default')).toMatchObject({ totalHits: 2 });
  });

  it('stops sweeping once closed, so a closed store holds no timer', async () => {
    await storage.increment('a', 1000, 2, 1000, 'default');
    storage.close();
    expect(jest.getTimerCount()).toBe(0);
  });
});
