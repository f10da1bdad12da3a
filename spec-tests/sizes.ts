// How many cases the heaviest property loops run. `npm test` runs a representative share (a
// quarter, at least 25 cases), so the suite stays short enough to run before every commit;
// `npm run soak` sets CONTEXT_FULL_TESTS=1 and runs them at full size. Either way every
// assertion is made: only the number of generated cases behind it changes.
export const FULL_TESTS = process.env['CONTEXT_FULL_TESTS'] === '1';

/** `full` cases under `npm run soak`, a quarter of them (at least 25) under `npm test`. */
export const runs = (full: number): number => (FULL_TESTS ? full : Math.max(25, Math.ceil(full / 4)));

/** Every item under `npm run soak`, every fourth (the first included) under `npm test`. */
export const share = <T>(items: readonly T[]): T[] => (FULL_TESTS ? [...items] : items.filter((_, i) => i % 4 === 0));
