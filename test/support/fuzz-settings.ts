/** Runs per property: two thousand in CI (about six thousand cases in all); `npm run fuzz -- --runs N` sets FUZZ_RUNS for more. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
/** A fixed seed, printed with any failure, so a failing case can be replayed; FUZZ_SEED overrides it. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20260206);
