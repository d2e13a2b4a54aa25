// SPDX-License-Identifier: MIT
// The check every adapter makes before it touches the engine: `init()` has resolved.
import { isInitialized, notInitialized } from '../../loader.js';

/**
 * Throws `NotInitialized` naming the adapter's call `what` and, when given, its package entry (`'planck'` for
 * sweep-prune/planck) when `init()` has not resolved.
 */
export function requireInit(what: string, entry?: string): void {
  if (!isInitialized()) throw notInitialized(what, entry);
}
