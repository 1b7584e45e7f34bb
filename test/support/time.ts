/**
 * The one multiplier for the time a test is given: TEST_TIME_SCALE (default 1). jest.config.js scales its
 * test timeout by it, and a suite that must bound a wait (a timeout of its own, a budget) scales by it with
 * `scaled`. Tests wait for events (a reload's outcome, a metric, a line of output), so on a slow or busy
 * machine a larger scale only moves the point where a stuck test is declared stuck.
 */
export const TIME_SCALE = Math.max(1, Number(process.env.TEST_TIME_SCALE) || 1);

/** `ms` times TEST_TIME_SCALE. */
export const scaled = (ms: number): number => Math.ceil(ms * TIME_SCALE);
