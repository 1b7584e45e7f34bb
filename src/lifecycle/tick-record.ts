import { executionAsyncResource } from 'node:async_hooks';

/**
 * One of Node's `process.nextTick` records, held for the life of the process.
 *
 * Node builds each tick record as an object literal whose first two keys are computed symbols
 * (`{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`). V8 reaches the record's
 * hidden class through transitions that live only as long as some object has that class. A response
 * schedules four or five ticks and none outlive it, so a full garbage collection that runs while the
 * tick queue is empty can collect the whole chain of hidden classes. The next record then gets new
 * ones, the literal's inline caches in `nextTick` turn megamorphic for good, and every tick after that
 * goes through V8's runtime to add each property. Measured on the benchmark's 304 after every other
 * scenario had run (docs/performance.md): 10-14 µs of the service's CPU per request, about a tenth.
 *
 * Holding one record keeps its hidden class, and so the chain, alive. It is a record Node has already
 * run (the one whose callback is on the stack here); nothing reads it or changes it.
 */
let held: object | undefined;

/** Holds the record of the tick it schedules; resolves with it. Idempotent. */
export function holdTickRecord(): Promise<object> {
  if (held) return Promise.resolve(held);
  return new Promise((resolve) =>
    process.nextTick(() => {
      held ??= executionAsyncResource();
      resolve(held);
    }),
  );
}
