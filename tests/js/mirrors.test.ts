// The numbers web/src keeps in step with the C engine by hand (the scratch block's offsets, the box id's bit split,
// the result codes' order, the counters' offsets), checked against the wasm module itself; c/wasm/exports.c asserts
// the same at compile time from the C side.
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { init, World } from '../../web/src/index.js';
import { RESULT, RESULT_CODES } from '../../web/src/errors.js';
import { getEngine } from '../../web/src/loader.js';
import {
  COUNTER_OFFSETS,
  COUNTERS_BYTES,
  GENERATION_BITS,
  PAIR_LIST,
  SCRATCH_MAX,
  SCRATCH_MIN,
  SCRATCH_OUT,
} from '../../web/src/raw.js';
import { bruteForce, pairSet, type Box } from './oracle.js';

beforeAll(() => init());

const rawWorlds: number[] = [];
afterEach(() => {
  const raw = getEngine();
  for (const w of rawWorlds.splice(0)) raw.sp_destroy_world(w);
});

function createRawWorld(dimensions: number): number {
  const raw = getEngine();
  expect(raw.sp_create_world(dimensions, 0)).toBe(0);
  const world = new Uint32Array(raw.memory.buffer, raw.sp_scratch() + SCRATCH_OUT, 1)[0]!;
  rawWorlds.push(world);
  return world;
}

/** sp_add_box of a 2D box through the scratch block: the result code (the id is at SCRATCH_OUT). */
function addRaw(world: number, min: number[], max: number[]): number {
  const raw = getEngine();
  const scratch = raw.sp_scratch();
  new Float32Array(raw.memory.buffer, scratch + SCRATCH_MIN, 2).set(min);
  new Float32Array(raw.memory.buffer, scratch + SCRATCH_MAX, 2).set(max);
  return raw.sp_add_box(world);
}

function cString(pointer: number): string {
  const bytes = new Uint8Array(getEngine().memory.buffer, pointer);
  return new TextDecoder().decode(bytes.subarray(0, bytes.indexOf(0)));
}

describe('mirrors of the C layout', () => {
  test('the module reads a box from the scratch block at SCRATCH_MIN and SCRATCH_MAX and writes ids at SCRATCH_OUT', () => {
    const raw = getEngine();
    const world = createRawWorld(2);
    const scratch = raw.sp_scratch();
    new Float32Array(raw.memory.buffer, scratch + SCRATCH_MIN, 2).set([1, 2]);
    new Float32Array(raw.memory.buffer, scratch + SCRATCH_MAX, 2).set([3, 4]);
    expect(raw.sp_add_box(world)).toBe(0);
    const box = new Uint32Array(raw.memory.buffer, scratch + SCRATCH_OUT, 1)[0]!;
    expect(raw.sp_is_box_valid(world, box)).toBe(1);
    // the slot's bounds, as the engine stored them: mins, then maxes
    expect([...new Float32Array(raw.memory.buffer, raw.sp_bounds(world), 4)]).toEqual([1, 2, 3, 4]);
    new Float32Array(raw.memory.buffer, scratch, 8).fill(0);
    expect(raw.sp_get_box(world, box)).toBe(0);
    expect([...new Float32Array(raw.memory.buffer, scratch + SCRATCH_MIN, 2)]).toEqual([1, 2]);
    expect([...new Float32Array(raw.memory.buffer, scratch + SCRATCH_MAX, 2)]).toEqual([3, 4]);
  });

  test('box ids are slot << GENERATION_BITS | generation', () => {
    const raw = getEngine();
    const world = createRawWorld(1);
    const scratch = raw.sp_scratch();
    const add = (): number => {
      new Float32Array(raw.memory.buffer, scratch + SCRATCH_MIN, 1)[0] = 0;
      new Float32Array(raw.memory.buffer, scratch + SCRATCH_MAX, 1)[0] = 1;
      expect(raw.sp_add_box(world)).toBe(0);
      return new Uint32Array(raw.memory.buffer, scratch + SCRATCH_OUT, 1)[0]!;
    };
    const first = add();
    const second = add();
    expect(first).toBe((0 << GENERATION_BITS) | 1);
    expect(second).toBe((1 << GENERATION_BITS) | 1);
    expect(raw.sp_remove_box(world, first)).toBe(0);
    // slot 0 again, its next generation
    expect(add()).toBe((0 << GENERATION_BITS) | 2);
  });

  test('RESULT_CODES names each C result code by its value', () => {
    const raw = getEngine();
    const words: Record<string, RegExp> = {
      Ok: /^ok$/,
      InvalidBounds: /finite/,
      InvertedBounds: /min must be <= max/,
      InvalidDimensions: /dimensions must be/,
      NullArgument: /pointer argument is null/,
      InvalidWorld: /invalid world id/,
      InvalidBox: /invalid box id/,
      StaleBox: /stale box id/,
      CapacityExceeded: /capacity exceeded/,
      OutOfMemory: /out of memory/,
      TooManyWorlds: /too many worlds/,
      InvalidDef: /invalid world definition/,
    };
    expect(RESULT_CODES).toEqual(Object.keys(words));
    RESULT_CODES.forEach((name, value) => expect(cString(raw.sp_result_string(value))).toMatch(words[name]!));
    // one past the last code is no code
    expect(cString(raw.sp_result_string(RESULT_CODES.length))).toBe('unknown result');

    // and the codes the module returns, provoked
    const world = createRawWorld(2);
    const scratch = raw.sp_scratch();
    const box = (min: number[], max: number[]): number => addRaw(world, min, max);
    expect(RESULT_CODES[box([NaN, 0], [1, 1])]).toBe('InvalidBounds');
    expect(RESULT_CODES[box([2, 0], [1, 1])]).toBe('InvertedBounds');
    expect(RESULT_CODES[raw.sp_create_world(5, 0)]).toBe('InvalidDimensions');
    expect(RESULT_CODES[raw.sp_destroy_world(0)]).toBe('InvalidWorld');
    expect(RESULT_CODES[raw.sp_remove_box(world, 0)]).toBe('InvalidBox');
    expect(box([0, 0], [1, 1])).toBe(0);
    const id = new Uint32Array(raw.memory.buffer, scratch + SCRATCH_OUT, 1)[0]!;
    expect(raw.sp_remove_box(world, id)).toBe(0);
    expect(RESULT_CODES[raw.sp_remove_box(world, id)]).toBe('StaleBox');
    expect(RESULT_CODES[raw.sp_reserve(world, 2 ** 30)]).toBe('CapacityExceeded');
  });

  test('RESULT gives each C result code by name: the value the module returns for it', () => {
    const raw = getEngine();
    expect(Object.keys(RESULT)).toEqual([...RESULT_CODES]);
    const world = createRawWorld(2);
    const box = (min: number[], max: number[]): number => addRaw(world, min, max);
    expect(box([0, 0], [1, 1])).toBe(RESULT.Ok);
    expect(box([NaN, 0], [1, 1])).toBe(RESULT.InvalidBounds);
    expect(box([2, 0], [1, 1])).toBe(RESULT.InvertedBounds);
    expect(raw.sp_remove_box(world, 0)).toBe(RESULT.InvalidBox);
    expect(raw.sp_reserve(world, 2 ** 30)).toBe(RESULT.CapacityExceeded);
    expect(cString(raw.sp_result_string(RESULT.OutOfMemory))).toMatch(/out of memory/);
  });

  test('sp_pairs returns the list PAIR_LIST names: pairs, began and ended, as brute force finds them', () => {
    const raw = getEngine();
    const world = createRawWorld(2);
    const scratch = raw.sp_scratch();
    const boxes = new Map<number, Box>();
    const add = (b: Box): void => {
      expect(addRaw(world, b.min, b.max)).toBe(0);
      boxes.set(new Uint32Array(raw.memory.buffer, scratch + SCRATCH_OUT, 1)[0]!, b);
    };
    const list = (which: (typeof PAIR_LIST)[keyof typeof PAIR_LIST]): string[] => {
      const ptr = raw.sp_pairs(world, which);
      const count = new Uint32Array(raw.memory.buffer, scratch + SCRATCH_OUT, 1)[0]!;
      return pairSet(new Uint32Array(raw.memory.buffer, ptr, 2 * count));
    };
    for (let i = 0; i < 6; i++) add({ min: [i, 0], max: [i + 1.5, 1] });
    expect(raw.sp_update(world)).toBe(0);
    const first = bruteForce(boxes);
    expect(first.length).toBeGreaterThan(0);
    expect(list(PAIR_LIST.pairs)).toEqual(first);
    expect(list(PAIR_LIST.began)).toEqual(first); // every pair began in the first update
    expect(list(PAIR_LIST.ended)).toEqual([]);
    // the last box moves away: its pairs end, and one new box begins a pair
    const [last] = [...boxes.keys()].slice(-1);
    boxes.get(last!)!.min[1] = 10;
    boxes.get(last!)!.max[1] = 11;
    new Float32Array(raw.memory.buffer, scratch + SCRATCH_MIN, 2).set(boxes.get(last!)!.min);
    new Float32Array(raw.memory.buffer, scratch + SCRATCH_MAX, 2).set(boxes.get(last!)!.max);
    expect(raw.sp_set_box(world, last!)).toBe(0);
    add({ min: [0.25, 0.25], max: [0.5, 0.5] });
    expect(raw.sp_update(world)).toBe(0);
    const second = bruteForce(boxes);
    expect(list(PAIR_LIST.pairs)).toEqual(second);
    expect(list(PAIR_LIST.began)).toEqual(second.filter((p) => !first.includes(p)));
    expect(list(PAIR_LIST.ended)).toEqual(first.filter((p) => !second.includes(p)));
  });

  test('counters are read by name at COUNTER_OFFSETS', () => {
    expect(Math.max(...Object.values(COUNTER_OFFSETS)) + 4).toBe(COUNTERS_BYTES);
    // values that differ from field to field, so a counter read at another's offset is caught: boxes along y,
    // narrow in x (the sweep axis is y), two of them static, a few overlapping
    const boxes: Box[] = [
      [
        [0, 0],
        [1, 10],
      ],
      [
        [0, 5],
        [1, 15],
      ],
      [
        [0.5, 12],
        [1.5, 30],
      ],
      [
        [0, 40],
        [1, 41],
      ],
      [
        [0, 60],
        [1, 70],
      ],
      [
        [0.2, 65],
        [0.8, 66],
      ],
      [
        [0, 90],
        [1, 95],
      ],
    ].map(([min, max]) => ({ min: min!, max: max! }));
    const world = new World({ dimensions: 2 });
    try {
      const ids = boxes.map((b) => world.addBox(b.min, b.max));
      world.setBoxStatic(ids[3]!, true);
      world.setBoxStatic(ids[6]!, true);
      world.update();
      const pairs = bruteForce(new Map(ids.map((id, i) => [id, boxes[i]!]))).length;
      expect(pairs).toBe(3);
      expect(world.counters).toMatchObject({
        boxes: 7,
        sweepAxis: 1,
        swaps: 0,
        rebuilt: 1,
        pairs,
        began: pairs,
        ended: 0,
        endpointSwaps: 0,
        staticBoxes: 2,
        staticRebuilt: 1,
        refreshed: 0,
      });
      expect(world.counters.slabs).toBeGreaterThanOrEqual(1);
      expect(world.counters.overlapTests).toBeGreaterThanOrEqual(2);

      // a coherent frame: one pair ends, the index is refreshed, the static boxes stay
      world.setBox(ids[5]!, [0.2, 75], [0.8, 76]);
      world.update();
      expect(world.counters).toMatchObject({
        boxes: 7,
        sweepAxis: 1,
        rebuilt: 0,
        pairs: pairs - 1,
        began: 0,
        ended: 1,
        staticBoxes: 2,
        staticRebuilt: 0,
        refreshed: 1,
      });
      // the endpoint list's insertion sort: 14 endpoints in slot order along y, sorted on the first call
      world.endpoints(1);
      expect(world.counters.endpointSwaps).toBeGreaterThan(0);
      expect(world.counters.pairs).toBe(pairs - 1);
    } finally {
      world.dispose();
    }
  });
});
