// SPDX-License-Identifier: MIT
// What every call of a world into the engine shares: its inputs written to the scratch block, checked first, and
// its result code turned into the SweepPruneError that names the method and the fix.
import { RESULT_CODES, SweepPruneError } from './errors.js';
import { checkNumberArray, describeBad } from './checks.js';
import { isFloat32 } from './float32.js';
import { type RawExports, SCRATCH_MAX, SCRATCH_MIN, SCRATCH_OUT } from './raw.js';

/**
 * The engine's text for a result code. Copied out first: TextDecoder refuses a view of a resizable buffer, which
 * the memory's is where the runtime can (loader.ts).
 */
export function resultText(raw: RawExports, result: number): string {
  const bytes = new Uint8Array(raw.memory.buffer, raw.sp_result_string(result));
  return new TextDecoder().decode(bytes.slice(0, bytes.indexOf(0)));
}

/** Throw the error for an engine result code, naming `what` (the method the caller used). */
export function fail(raw: RawExports, result: number, what: string, boxId?: number): never {
  const code = RESULT_CODES[result] ?? 'InvalidArgument';
  const text = resultText(raw, result);
  const hint =
    code === 'StaleBox'
      ? ' Do not use an id after removeBox().'
      : code === 'InvalidBox'
        ? ' Use an id returned by addBox() of this world.'
        : code === 'OutOfMemory'
          ? ' The wasm module reached its memory limit (2 GB); remove boxes or dispose unused worlds.'
          : '';
  throw new SweepPruneError(code === 'Ok' ? 'InvalidArgument' : code, `${what}: ${text}.${hint}`, boxId);
}

/** An engine call's result: nothing when it succeeded (0), else the error `fail` throws. */
export function check(raw: RawExports, result: number, what: string, boxId?: number): void {
  if (result !== 0) fail(raw, result, what, boxId);
}

/** The engine's uint32 outputs of the last call (ids, pointers, counts), `n` of them. */
export function outputs(raw: RawExports, scratch: number, n: number): Uint32Array {
  return new Uint32Array(raw.memory.buffer, scratch + SCRATCH_OUT, n);
}

/** Check a box's bounds as `addBox` documents, and write them to the scratch block's min and max. */
export function writeBox(
  raw: RawExports,
  scratch: number,
  dimensions: number,
  what: string,
  min: ArrayLike<number>,
  max: ArrayLike<number>,
): void {
  checkNumberArray(what, 'min', min, dimensions);
  checkNumberArray(what, 'max', max, dimensions);
  const f = new Float32Array(raw.memory.buffer, scratch, 8);
  for (let a = 0; a < dimensions; a++) {
    const lo = min[a]!;
    const hi = max[a]!;
    // checked with no array made per call: every query writes its box here
    if (!isFloat32(lo) || !isFloat32(hi)) {
      const [name, v] = isFloat32(lo) ? ['max', hi] : ['min', lo];
      throw new SweepPruneError(
        'InvalidBounds',
        `${what}: ${name}[${a}] ${describeBad(v)}; bounds must be numbers within the float32 range (for an unbounded box use ±3.4028234663852886e38)`,
      );
    }
    if (!(lo <= hi)) {
      throw new SweepPruneError('InvertedBounds', `${what}: min[${a}] (${lo}) must be <= max[${a}] (${hi})`);
    }
    f[SCRATCH_MIN / 4 + a] = lo;
    f[SCRATCH_MAX / 4 + a] = hi;
  }
}
