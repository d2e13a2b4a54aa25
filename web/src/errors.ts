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
export const RESULT_CODES = [
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
] as const satisfies readonly (ErrorCode | 'Ok')[];

/** A C result code's name (`spResult` without the `sp_result` prefix). */
export type ResultName = (typeof RESULT_CODES)[number];

/** The value of each C result code by name, so that the wrapper never writes one as a bare number. */
export const RESULT = Object.fromEntries(RESULT_CODES.map((name, value) => [name, value])) as {
  readonly [Name in ResultName]: number;
};

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
