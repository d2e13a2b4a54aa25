// How the page states a time, in chapter 14 and chapter 15 alike: the typical milliseconds of several rounds, their
// median, and the spread from the fastest round to the slowest, since one run to the next on a busy machine can
// differ twofold. The benchmark's latest figures are kept here by N, so that chapter 14 can set its own beside them.

/**
 * The median, robust to a stray garbage collection; but browsers round performance.now() to 0.1 ms (with jitter),
 * so below half a millisecond the mean of many frames is the better estimate.
 */
export function typical(xs: readonly number[]): number {
  const s = [...xs].sort((p, q) => p - q);
  const median = s[s.length >> 1]!;
  return median >= 0.5 ? median : s.reduce((sum, x) => sum + x, 0) / s.length;
}

/** A time over rounds: the median of the rounds' typical times, and the fastest and slowest round's. */
export interface Spread {
  ms: number;
  lo: number;
  hi: number;
  rounds: number;
}

/** The spread of `rounds` (each a list of times in ms; empty ones are left out), or undefined with none. */
export function spreadOf(rounds: ReadonlyArray<readonly number[]>): Spread | undefined {
  const t = rounds
    .filter((r) => r.length)
    .map(typical)
    .sort((p, q) => p - q);
  if (!t.length) return undefined;
  return { ms: t[t.length >> 1]!, lo: t[0]!, hi: t.at(-1)!, rounds: t.length };
}

/** Milliseconds with the digits that mean something at their size. */
export function ms(x: number): string {
  return x < 0.1 ? x.toFixed(3) : x < 10 ? x.toFixed(2) : x.toFixed(1);
}

/** "6.60 ms (6.10–7.40)": the median, and the fastest and slowest round in brackets when there are several. */
export function sayMs(s: Spread): string {
  return s.rounds > 1 ? `${ms(s.ms)} ms (${ms(s.lo)}–${ms(s.hi)})` : `${ms(s.ms)} ms`;
}

/** The benchmark's latest engine figure per N, on one thread or more (chapter 15 writes, chapter 14 reads). */
export const benchmarked = new Map<number, Spread & { threads: number }>();
