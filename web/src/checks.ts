// SPDX-License-Identifier: MIT
// Argument checks shared by the World and its queries: each throws a SweepPruneError naming the method and the fix.
import { SweepPruneError } from './errors.js';

export function checkNumberArray(what: string, name: string, v: ArrayLike<number>, dimensions: number): void {
  if (v == null || typeof v.length !== 'number') {
    throw new SweepPruneError(
      'InvalidArgument',
      `${what}: ${name} must be an array of ${dimensions} numbers, got ${v === null ? 'null' : typeof v}`,
    );
  }
  if (v.length !== dimensions) {
    throw new SweepPruneError(
      'InvalidDimensions',
      `${what}: ${name} has ${count(v.length, 'coordinate')}; this world has ${count(dimensions, 'dimension')}`,
    );
  }
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export function describeBad(v: unknown): string {
  if (typeof v !== 'number') return `is ${v === null ? 'null' : typeof v}, not a number`;
  if (Number.isNaN(v)) return 'is NaN';
  if (!Number.isFinite(v)) return `is ${v}`;
  return `(${v}) is beyond the float32 range ±3.4028234663852886e38`;
}

export function checkCallback(what: string, fn: unknown): void {
  if (typeof fn !== 'function') {
    throw new SweepPruneError(
      'InvalidArgument',
      `${what}: fn must be a function (id, data, distance) => void, got ${typeof fn}`,
    );
  }
}

/**
 * The one check of every bit mask and category a call takes (queries, ray options, box filters): an integer that
 * fits 32 bits, signed or unsigned (-1 is every bit). Returns it as an unsigned 32-bit integer.
 */
export function checkMask(what: string, name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < -0x80000000 || v > 0xffffffff) {
    throw new SweepPruneError(
      'InvalidArgument',
      `${what}: ${name} must be a 32-bit integer bit mask, got ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`,
    );
  }
  return v >>> 0;
}

// A distance limit: a number >= 0, Infinity allowed.
export function checkDistance(what: string, name: string, v: unknown, hint: string): number {
  if (typeof v !== 'number' || !(v >= 0)) {
    throw new SweepPruneError('InvalidBounds', `${what}: ${name} must be a number >= 0 (${hint}), got ${String(v)}`);
  }
  return v;
}
