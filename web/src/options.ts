// SPDX-License-Identifier: MIT
// Options objects: an unknown key throws, naming the known key it is nearest to, so that a typo
// (`{ dimension: 3 }`) is never silently read as "use the default".
import { SweepPruneError } from './errors.js';

/** Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`, case ignored. */
function editDistance(a: string, b: string): number {
  a = a.toLowerCase();
  b = b.toLowerCase();
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Throws `InvalidArgument` for the first own key of `options` that is not in `known`, naming it, the nearest known
 * key when it is a likely typo, and every known key. `options` must already be an object.
 */
export function checkOptions(what: string, options: object, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    // a likely typo: cut short (`maxDist`), else a few edits away
    const cut = key.length >= 3 ? known.find((k) => k.toLowerCase().startsWith(key.toLowerCase())) : undefined;
    let nearest = cut ?? known[0]!;
    if (cut === undefined) for (const k of known) if (editDistance(key, k) < editDistance(key, nearest)) nearest = k;
    const close = cut !== undefined || editDistance(key, nearest) <= Math.max(2, Math.floor(nearest.length / 3));
    const guess = close ? ` (did you mean "${nearest}"?)` : '';
    const list = known.map((k) => `"${k}"`).join(', ');
    throw new SweepPruneError('InvalidArgument', `${what}: unknown option "${key}"${guess}; the options are ${list}`);
  }
}
