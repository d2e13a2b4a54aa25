// The error a call throws, for tests that check its code and message.
import type { SweepPruneError } from '../../../web/src/index.js';

export function thrown(f: () => unknown): SweepPruneError | undefined {
  try {
    f();
  } catch (e) {
    return e as SweepPruneError;
  }
  return undefined;
}
