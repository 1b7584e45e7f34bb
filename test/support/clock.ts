import { rawMeta } from './raw-data';

/**
 * Served prices age against the day of the answer (UTC). A suite whose expectations are worked out for
 * the release day calls this at its top: only Date is faked, set to noon UTC of the dataset version and
 * running on from there, so the answers do not depend on the day the suite runs (nor on midnight
 * passing during it). Timers and sockets stay real.
 */
/** Everything jest's fake timers would fake but Date: timers, ticks and clocks of the event loop stay real. */
export const REAL_TIMERS: NonNullable<NonNullable<Parameters<typeof jest.useFakeTimers>[0]>['doNotFake']> = [
  'nextTick',
  'setImmediate',
  'clearImmediate',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'queueMicrotask',
  'hrtime',
  'performance',
];

export function onReleaseDay(): void {
  beforeAll(() => {
    jest.useFakeTimers({
      advanceTimers: true,
      now: Date.parse(`${rawMeta.version}T12:00:00Z`),
      doNotFake: REAL_TIMERS,
    });
  });
  afterAll(() => jest.useRealTimers());
}
