// Every error of the World API: one SweepPruneError class with a code, a message naming the argument and the fix,
// and no change to the world. Also: bounds written through the view, the +-Infinity policy, use after dispose and
// running out of wasm memory.
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { init, SweepPruneError, World, type BoxId } from '../../web/src/index.js';
import { bruteForce, pairSet, type Box } from './oracle.js';
import { snapshot } from './snapshot.js';

beforeAll(() => init());

const worlds: World[] = [];
afterEach(() => {
  for (const w of worlds.splice(0)) w.dispose();
});

function make(dimensions = 2, capacity = 0): World {
  const w = new World({ dimensions, capacity });
  worlds.push(w);
  return w;
}

function caught(fn: () => unknown): SweepPruneError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SweepPruneError);
    expect(error).toBeInstanceOf(Error);
    return error as SweepPruneError;
  }
  throw new Error('expected a SweepPruneError, nothing was thrown');
}

function expectError(fn: () => unknown, code: string, ...patterns: RegExp[]): SweepPruneError {
  const error = caught(fn);
  expect(error.code).toBe(code);
  expect(error.name).toBe('SweepPruneError');
  for (const p of patterns) expect(error.message).toMatch(p);
  return error;
}

/** A world with pairs, began and ended all non-empty, and one removed id. */
function scene(d: number) {
  const w = make(d);
  const box = (lo: number, hi: number) => ({ min: Array(d).fill(lo), max: Array(d).fill(hi) });
  const ids: BoxId[] = [];
  for (let i = 0; i < 5; i++) {
    const b = box(i * 0.75, i * 0.75 + 1);
    ids.push(w.addBox(b.min, b.max));
  }
  w.update();
  w.setBox(ids[0]!, box(100, 101).min, box(100, 101).max);
  w.removeBox(ids[4]!);
  ids.push(w.addBox(box(99.5, 100.5).min, box(99.5, 100.5).max));
  w.update();
  expect(w.began.length).toBeGreaterThan(0);
  expect(w.ended.length).toBeGreaterThan(0);
  return { w, ids, removed: ids[4]!, live: ids[1]! };
}

const bad = [NaN, Infinity, -Infinity];

describe('InvalidBounds: NaN and +-Infinity are rejected (the documented policy) and change nothing', () => {
  for (const d of [1, 2, 3, 4]) {
    test(`${d}D: addBox, setBox and queryBox name the coordinate`, () => {
      const { w, ids, live } = scene(d);
      const before = snapshot(w, ids);
      for (let a = 0; a < d; a++) {
        for (const v of bad) {
          for (const side of ['min', 'max'] as const) {
            const min = Array(d).fill(0);
            const max = Array(d).fill(1);
            (side === 'min' ? min : max)[a] = v;
            const name = new RegExp(`${side}\\[${a}\\] is ${v}`);
            expectError(() => w.addBox(min, max), 'InvalidBounds', /^addBox: /, name, /within the float32 range/);
            expectError(() => w.setBox(live, min, max), 'InvalidBounds', new RegExp(`^setBox\\(${live}\\)`), name);
            expectError(() => w.queryBox(min, max), 'InvalidBounds', /^queryBox/);
          }
        }
      }
      // the whole line, -Infinity to +Infinity, is not a box either: use a large finite bound
      expectError(
        () => w.addBox(Array(d).fill(-Infinity), Array(d).fill(Infinity)),
        'InvalidBounds',
        /for an unbounded box use ±3.4028234663852886e38/,
      );
      expect(snapshot(w, ids)).toEqual(before);
    });
  }

  test('numbers that are finite in JS but overflow float32 are rejected too', () => {
    const { w, ids } = scene(2);
    const before = snapshot(w, ids);
    expectError(() => w.addBox([0, 0], [1, 3.5e38]), 'InvalidBounds');
    expectError(
      () => w.addBox([-1e39, 0], [1, 1]),
      'InvalidBounds',
      /min\[0\] \(-1e\+39\) is beyond the float32 range/,
    );
    expectError(
      () => w.castRay([0, 1e39], [1, 0]),
      'InvalidBounds',
      /origin\[1\] \(1e\+39\) is beyond the float32 range/,
    );
    expect(snapshot(w, ids)).toEqual(before);
    // the largest float32 is fine
    const big = w.addBox([-3.4028234663852886e38, 0], [3.4028234663852886e38, 0]);
    w.update();
    expect(w.getBox(big).max[0]).toBe(3.4028234663852886e38);
  });

  test('non-numbers in a coordinate array are rejected', () => {
    const { w, ids } = scene(2);
    const before = snapshot(w, ids);
    expectError(() => w.addBox([0, '1' as never], [1, 2]), 'InvalidBounds', /min\[1\]/);
    expectError(() => w.addBox([0, 0], [1, undefined as never]), 'InvalidBounds', /max\[1\]/);
    expect(snapshot(w, ids)).toEqual(before);
  });
});

describe('InvertedBounds', () => {
  for (const d of [1, 2, 3, 4]) {
    test(`${d}D: min > max on any axis is rejected by addBox, setBox and queryBox and changes nothing`, () => {
      const { w, ids, live } = scene(d);
      const before = snapshot(w, ids);
      for (let a = 0; a < d; a++) {
        const min = Array(d).fill(0);
        const max = Array(d).fill(1);
        min[a] = 1.5;
        const text = new RegExp(`min\\[${a}\\] \\(1\\.5\\) must be <= max\\[${a}\\] \\(1\\)`);
        expectError(() => w.addBox(min, max), 'InvertedBounds', text);
        expectError(() => w.setBox(live, min, max), 'InvertedBounds', text);
        expectError(() => w.queryBox(min, max), 'InvertedBounds');
      }
      expect(snapshot(w, ids)).toEqual(before);
    });
  }
});

describe('InvalidDimensions', () => {
  test('coordinate arrays of the wrong length, world dimensions and endpoint axes', () => {
    const { w, ids } = scene(3);
    const before = snapshot(w, ids);
    expectError(
      () => w.addBox([0, 0], [1, 1]),
      'InvalidDimensions',
      /min has 2 coordinates; this world has 3 dimensions/,
    );
    expectError(() => w.addBox([0, 0, 0], [1, 1, 1, 1]), 'InvalidDimensions', /max has 4 coordinates/);
    expectError(() => w.setBox(ids[1]!, [0], [1]), 'InvalidDimensions');
    expectError(() => w.queryBox([0, 0], [1, 1]), 'InvalidDimensions');
    for (const axis of [-1, 3, 4, 0.5, NaN]) {
      expectError(() => w.endpoints(axis), 'InvalidDimensions', /endpoints: axis must be an integer from 0 to 2/);
    }
    expect(snapshot(w, ids)).toEqual(before);
    for (const dimensions of [0, 5, -1, 2.5, NaN]) {
      expectError(() => new World({ dimensions }), 'InvalidDimensions', /options\.dimensions must be 1, 2, 3 or 4/);
    }
  });
});

describe('InvalidArgument', () => {
  test('a missing or non-array argument and bad options', () => {
    const { w, ids } = scene(2);
    const before = snapshot(w, ids);
    expectError(() => w.addBox(null as never, [1, 1]), 'InvalidArgument', /addBox: min must be an array of 2 numbers/);
    expectError(() => w.addBox([0, 0], undefined as never), 'InvalidArgument', /max must be an array/);
    expectError(() => w.addBox(5 as never, [1, 1]), 'InvalidArgument');
    expectError(() => new World(null as never), 'InvalidArgument', /options must be an object/);
    expect(snapshot(w, ids)).toEqual(before);
  });
});

describe('InvalidBox and StaleBox', () => {
  test('ids that were never handed out are InvalidBox, for every call that takes an id', () => {
    const { w, ids } = scene(2);
    const before = snapshot(w, ids);
    const never = [0, -1, 1.5, NaN, 2 ** 32, (12345 << 10) | 1, ids[1]! + 1, ids[1]! & ~1023];
    for (const id of never) {
      for (const call of [
        () => w.removeBox(id),
        () => w.setBox(id, [0, 0], [1, 1]),
        () => w.getBox(id),
        () => w.setBoxFilter(id, 1, 1),
        () => w.getBoxFilter(id),
        () => w.setBoxStatic(id, true),
      ]) {
        const error = expectError(call, 'InvalidBox', /addBox\(\)/);
        expect(error.message).toMatch(/not a box id|invalid box id/);
      }
      expect(w.isBoxValid(id)).toBe(false);
    }
    expect(snapshot(w, ids)).toEqual(before);
  });

  test('a removed id is StaleBox for every call, even after its slot is reused (double remove included)', () => {
    const { w, ids, removed } = scene(2);
    // the scene's last add reused the removed box's slot
    expect(ids[5]! >>> 10).toBe(removed >>> 10);
    const before = snapshot(w, ids);
    for (const call of [
      () => w.removeBox(removed),
      () => w.setBox(removed, [0, 0], [1, 1]),
      () => w.getBox(removed),
      () => w.setBoxFilter(removed, 1, 1),
      () => w.getBoxFilter(removed),
      () => w.setBoxStatic(removed, true),
    ]) {
      const error = expectError(call, 'StaleBox', /stale box id/, /Do not use an id after removeBox\(\)/);
      expect(error.boxId).toBe(removed);
    }
    expect(w.isBoxValid(removed)).toBe(false);
    expect(snapshot(w, ids)).toEqual(before);
  });

  test('an id from another world is refused unless it names a live box here (ids do not carry their world)', () => {
    const { w, ids } = scene(2);
    const other = make(2);
    let foreign = 0;
    for (let i = 0; i < 20; i++) foreign = other.addBox([0, 0], [1, 1]);
    const before = snapshot(w, ids);
    expectError(() => w.removeBox(foreign), 'InvalidBox');
    expect(snapshot(w, ids)).toEqual(before);
  });
});

describe('CapacityExceeded, and no fixed limit on worlds', () => {
  test('capacity outside 0..4194304 in the options and in reserve()', () => {
    const { w, ids } = scene(2);
    const before = snapshot(w, ids);
    for (const capacity of [-1, 2 ** 22 + 1, 1.5, NaN, Infinity]) {
      expectError(
        () => w.reserve(capacity),
        'CapacityExceeded',
        /reserve: capacity must be an integer from 0 to 4194304/,
      );
      expectError(() => new World({ capacity }), 'CapacityExceeded', /options\.capacity/);
    }
    expect(snapshot(w, ids)).toEqual(before);
  });

  test('worlds are limited by memory, not by a table: 2000 alive at once, each one usable', () => {
    const many: World[] = [];
    try {
      for (let i = 0; i < 2000; i++) {
        const w = new World();
        many.push(w);
        w.addBox([i, 0], [i + 1, 1]);
      }
      for (const w of many) expect(w.boxCount).toBe(1);
      many[1999]!.addBox([1999.5, 0.5], [2001, 2]);
      many[1999]!.update();
      expect(many[1999]!.pairs.length).toBe(2);
    } finally {
      for (const m of many) m.dispose();
    }
  });
});

describe('Disposed', () => {
  test('every method and getter throws after dispose(); dispose is idempotent', () => {
    const w = new World({ dimensions: 2 });
    const id = w.addBox([0, 0], [1, 1]);
    w.update();
    w.dispose();
    w.dispose();
    w[Symbol.dispose]();
    expect(w.disposed).toBe(true);
    const calls: [string, () => unknown][] = [
      ['addBox', () => w.addBox([0, 0], [1, 1])],
      ['removeBox', () => w.removeBox(id)],
      ['setBox', () => w.setBox(id, [0, 0], [1, 1])],
      ['getBox', () => w.getBox(id)],
      ['setBoxFilter', () => w.setBoxFilter(id, 1, 1)],
      ['getBoxFilter', () => w.getBoxFilter(id)],
      ['setBoxStatic', () => w.setBoxStatic(id, true)],
      ['queryBox', () => w.queryBox([0, 0], [1, 1])],
      ['queryPoint', () => w.queryPoint([0, 0])],
      ['castRay', () => w.castRay([0, 0], [1, 0])],
      ['reserve', () => w.reserve(10)],
      ['update', () => w.update()],
      ['endpoints', () => w.endpoints(0)],
      ['bounds', () => w.bounds],
      ['pairs', () => w.pairs],
      ['began', () => w.began],
      ['ended', () => w.ended],
      ['pairCount', () => w.pairCount],
      ['counters', () => w.counters],
      ['boxCount', () => w.boxCount],
      ['byteCount', () => w.byteCount],
      ['forEachPair', () => w.forEachPair(() => {})],
      ['forEachBegan', () => w.forEachBegan(() => {})],
      ['forEachEnded', () => w.forEachEnded(() => {})],
      ['setData', () => w.setData(id, undefined)],
      ['nearest', () => w.nearest([0, 0], 1)],
      ['queryRadius', () => w.queryRadius([0, 0], 1)],
      ['firstHit', () => w.firstHit([0, 0], [1, 0])],
      ['forEachInBox', () => w.forEachInBox([0, 0], [1, 1], () => {})],
      ['forEachNearest', () => w.forEachNearest([0, 0], 1, () => {})],
      ['forEachInRadius', () => w.forEachInRadius([0, 0], 1, () => {})],
      ['forEachOnRay', () => w.forEachOnRay([0, 0], [1, 0], () => {})],
    ];
    for (const [name, call] of calls) {
      expectError(call, 'Disposed', new RegExp(`^${name}`), /this World was disposed; create a new World/);
    }
    // queries that answer "no" stay answerable
    expect(w.isBoxValid(id)).toBe(false);
  });
});

describe('bounds written through the view: update() rejects the whole frame', () => {
  for (const d of [1, 2, 3, 4]) {
    test(`${d}D: NaN, +Inf, -Inf and inverted on each axis and side name the box and keep the previous pairs`, () => {
      const { w, ids } = scene(d);
      const live = ids.filter((id) => w.isBoxValid(id));
      const victim = live[1]!;
      const mover = live[2]!;
      for (let a = 0; a < d; a++) {
        for (const side of [0, 1]) {
          for (const kind of ['NaN', 'Infinity', '-Infinity', 'inverted'] as const) {
            const view = w.bounds;
            const at = w.offsetOf(victim) + side * d + a;
            const saved = view[at]!;
            const other = view[w.offsetOf(victim) + (1 - side) * d + a]!;
            view[at] = kind === 'inverted' ? (side === 0 ? other + 1 : other - 1) : Number(kind);
            // another box moves in the same frame: the rejected frame must not apply that move either
            const m = w.offsetOf(mover);
            view[m] = view[m]! + 50;
            view[m + d] = view[m + d]! + 50;
            const before = {
              pairs: Array.from(w.pairs),
              began: Array.from(w.began),
              ended: Array.from(w.ended),
              counters: w.counters,
            };
            const code = kind === 'inverted' ? 'InvertedBounds' : 'InvalidBounds';
            const error = expectError(
              () => w.update(),
              code,
              new RegExp(`^update: box ${victim} has min \\[`),
              /fix them through bounds or setBox/,
            );
            expect(error.boxId).toBe(victim);
            expect({
              pairs: Array.from(w.pairs),
              began: Array.from(w.began),
              ended: Array.from(w.ended),
              counters: w.counters,
            }).toEqual(before);
            // endpoints() validates the same way
            expect(expectError(() => w.endpoints(0), code, /^endpoints: box/).boxId).toBe(victim);
            view[at] = saved;
            view[m] = view[m]! - 50;
            view[m + d] = view[m + d]! - 50;
          }
        }
      }
      // the repaired frame goes through and matches brute force
      w.update();
      const boxes = new Map<number, Box>();
      for (const id of live) boxes.set(id, w.getBox(id));
      expect(pairSet(w.pairs)).toEqual(bruteForce(boxes));
    });
  }

  test('garbage in the slots of removed boxes is ignored', () => {
    const { w, removed, ids } = scene(2);
    w.removeBox(ids[5]!); // the removed id's slot is now free
    const o = w.offsetOf(removed);
    w.bounds.fill(NaN, o, o + 4);
    w.update();
    expect(w.endpoints(0).values.every((v) => !Number.isNaN(v))).toBe(true);
  });
});

describe('OutOfMemory: the 2 GB wasm limit', () => {
  test('worlds reserving large capacity until memory runs out; everything stays usable after disposing them', () => {
    const small = make(2);
    const a = small.addBox([0, 0], [1, 1]);
    const b = small.addBox([0.5, 0.5], [2, 2]);
    small.update();
    const memory = () => (small.bounds.buffer as ArrayBuffer).byteLength;
    const big: World[] = [];
    try {
      // about 240 MB per 4D world of 4M boxes: the module's 2 GB runs out within ten
      let error: SweepPruneError | undefined;
      while (!error && big.length < 20) {
        try {
          big.push(new World({ dimensions: 4, capacity: 1 << 22 }));
        } catch (e) {
          error = e as SweepPruneError;
        }
      }
      expect(error).toBeInstanceOf(SweepPruneError);
      expect(error!.code).toBe('OutOfMemory');
      expect(error!.message).toMatch(/^new World: out of memory \(nothing was changed\)\./);
      expect(error!.message).toMatch(/memory limit \(2 GB\); remove boxes or dispose unused worlds/);
      expect(big.length).toBeGreaterThan(3);
      expect(memory()).toBeGreaterThan(1.5 * 2 ** 30);
      expect(memory()).toBeLessThanOrEqual(2 ** 31);
      // fill what is left with smaller and smaller worlds
      for (let capacity = 1 << 20; capacity >= 1 << 10; capacity >>= 2) {
        for (;;) {
          try {
            big.push(new World({ dimensions: 4, capacity }));
          } catch (e) {
            expect((e as SweepPruneError).code).toBe('OutOfMemory');
            break;
          }
        }
      }
      // growing a world fails cleanly and leaves it as it was
      const before = snapshot(small, [a, b]);
      expectError(() => small.reserve(1 << 20), 'OutOfMemory', /^reserve: out of memory/);
      expect(snapshot(small, [a, b])).toEqual(before);
      // adding boxes until an add needs more memory than there is
      let addError: SweepPruneError | undefined;
      const ids = [a, b];
      for (let i = 0; i < 100_000 && !addError; i++) {
        const snap = i % 16 === 0 ? snapshot(small, ids) : undefined;
        try {
          ids.push(small.addBox([i, 10], [i + 0.5, 11]));
        } catch (e) {
          addError = e as SweepPruneError;
          if (snap) expect(snapshot(small, ids)).toEqual(snap);
        }
      }
      expect(addError?.code).toBe('OutOfMemory');
      expect(addError?.message).toMatch(/^addBox: out of memory/);
      expect(small.getBox(a)).toEqual({ min: [0, 0], max: [1, 1] });
      // the update may or may not need memory; if it fails, the previous pairs are kept
      try {
        small.update();
      } catch (e) {
        expect((e as SweepPruneError).code).toBe('OutOfMemory');
        expect(pairSet(small.pairs)).toEqual([`${a},${b}`]);
      }
    } finally {
      for (const w of big) w.dispose();
    }
    // memory is free again: the small world updates and grows, and a big world fits
    small.update();
    expect(pairSet(small.pairs)[0]).toBe(`${a},${b}`);
    small.reserve(1 << 20);
    const again = make(4, 1 << 22);
    const id = again.addBox([0, 0, 0, 0], [1, 1, 1, 1]);
    again.update();
    expect(again.isBoxValid(id)).toBe(true);
  });
});
