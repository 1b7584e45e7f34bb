import { holdTickRecord } from './tick-record';

describe(holdTickRecord.name, () => {
  it("holds one of Node's nextTick records: the object with the tick's callback, its arguments and its async ids", async () => {
    const record = await holdTickRecord();
    const keys = Reflect.ownKeys(record).map(String);
    expect(keys).toEqual(expect.arrayContaining(['callback', 'args', 'Symbol(async_id_symbol)', 'Symbol(trigger_async_id_symbol)']));
    expect(typeof (record as { callback: unknown }).callback).toBe('function');
  });

  it('holds the same record for the life of the process, however often it is called', async () => {
    const first = await holdTickRecord();
    expect(await holdTickRecord()).toBe(first);
    expect(await Promise.all([holdTickRecord(), holdTickRecord()])).toEqual([first, first]);
  });
});
