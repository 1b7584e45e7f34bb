/** Runs per property: a few hundred in CI; `npm run fuzz -- --runs N` sets FUZZ_RUNS for more. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 300);
/** A fixed seed, printed with any failure, so a failing case can be replayed; FUZZ_SEED overrides it. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20260206);
