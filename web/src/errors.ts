// SPDX-License-Identifier: MIT

/**
 * Error codes. The first group mirrors the C `spResult` values (same order, without the `sp_result` prefix); the
 * rest come from the JS layer.
 */
export type ErrorCode =
  | 'InvalidBounds'
  | 'InvertedBounds'
  | 'InvalidDimensions'
  | 'NullArgument'
  | 'InvalidWorld'
  | 'InvalidBox'
  | 'StaleBox'
  | 'CapacityExceeded'
  | 'OutOfMemory'
  | 'TooManyWorlds'
  | 'InvalidDef'
  | 'InvalidArgument'
  | 'Disposed'
  | 'NotInitialized'
  | 'WasmLoadFailed'
  | 'AlreadyRegistered'
  | 'Busy'
  | 'WorkerFailed'
  | 'StaleView';

/** C result codes by value (`spResult`), index 0 being `sp_resultOk`. */
export const RESULT_CODES: readonly (ErrorCode | 'Ok')[] = [
  'Ok',
  'InvalidBounds',
  'InvertedBounds',
  'InvalidDimensions',
  'NullArgument',
  'InvalidWorld',
  'InvalidBox',
  'StaleBox',
  'CapacityExceeded',
  'OutOfMemory',
  'TooManyWorlds',
  'InvalidDef',
];

/** The one error class of the library. `code` says what went wrong; the message names the argument and the fix. */
export class SweepPruneError extends Error {
  readonly code: ErrorCode;
  /** The box id involved, when there is one (for example the box with NaN bounds that made `update()` fail). */
  readonly boxId: number | undefined;

  constructor(code: ErrorCode, message: string, boxId?: number) {
    super(message);
    this.name = 'SweepPruneError';
    this.code = code;
    this.boxId = boxId;
  }
}
