// Options objects: an unknown key (a typo) throws InvalidArgument naming it and the known key it is nearest to,
// instead of being read as "use the default" (`new World({ dimension: 3 })` made a 2D world).
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { init, SweepPruneError, World, type BoxId } from '../../web/src/index.js';
import { init as initThreads } from '../../web/src/threads.js';
import { snapshot } from './snapshot.js';

beforeAll(() => init());

const worlds: World[] = [];
afterEach(() => {
  for (const w of worlds.splice(0)) w.dispose();
});

function thrown(fn: () => unknown): SweepPruneError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(SweepPruneError);
    return error as SweepPruneError;
  }
  throw new Error('expected a SweepPruneError, nothing was thrown');
}

describe('new World(options)', () => {
  test.each([
    [{ dimension: 3 }, 'dimension', 'dimensions'],
    [{ Dimensions: 3 }, 'Dimensions', 'dimensions'],
    [{ dimensions: 3, capcity: 10 }, 'capcity', 'capacity'],
    [{ event: false }, 'event', 'events'],
    [{ thraeds: 2 }, 'thraeds', 'threads'],
  ])('%o throws InvalidArgument naming the option and the nearest known one', (options, key, nearest) => {
    const error = thrown(() => worlds.push(new World(options as never)));
    expect(error.code).toBe('InvalidArgument');
    expect(error.message).toContain(`new World: unknown option "${key}" (did you mean "${nearest}"?)`);
    expect(error.message).toContain('the options are "dimensions", "capacity", "events", "threads"');
  });

  test('a key far from every option gets the list, and no guess', () => {
    const error = thrown(() => worlds.push(new World({ dimensions: 2, colour: 'red' } as never)));
    expect(error.code).toBe('InvalidArgument');
    expect(error.message).toMatch(/unknown option "colour"; the options are/);
  });

  test('the known options still work, with undefined meaning the default', () => {
    const w = new World({ dimensions: 3, capacity: 8, events: false, threads: undefined });
    worlds.push(w);
    expect(w.dimensions).toBe(3);
  });
});

describe('ray options (castRay, firstHit, forEachOnRay)', () => {
  test('an unknown key throws InvalidArgument naming the nearest option, and changes nothing', () => {
    const w = new World();
    worlds.push(w);
    const ids: BoxId[] = [w.addBox([1, -1], [2, 1]), w.addBox([4, -1], [5, 1])];
    w.update();
    const before = snapshot(w, ids);
    const calls: [string, () => unknown][] = [
      ['castRay', () => w.castRay([0, 0], [1, 0], { maxHit: 1 } as never)],
      ['firstHit', () => w.firstHit([0, 0], [1, 0], { blockmask: 1 } as never)],
      ['forEachOnRay', () => w.forEachOnRay([0, 0], [1, 0], () => {}, { maxDist: 3 } as never)],
    ];
    const nearest = ['maxHits', 'blockMask', 'maxDistance'];
    calls.forEach(([what, call], i) => {
      const error = thrown(call);
      expect(error.code).toBe('InvalidArgument');
      expect(error.message).toMatch(new RegExp(`^${what}: unknown option ".*" \\(did you mean "${nearest[i]}"\\?\\)`));
    });
    expect(snapshot(w, ids)).toEqual(before);
    expect(w.castRay([0, 0], [1, 0], { maxHits: 1 }).ids).toEqual(Uint32Array.of(ids[0]!));
  });
});

describe('init(options) of sweep-prune/threads', () => {
  test('an unknown key rejects with InvalidArgument naming the nearest option; a wasm source instead of options too', async () => {
    await expect(initThreads({ thread: 'x.wasm' } as never)).rejects.toMatchObject({
      code: 'InvalidArgument',
      message: expect.stringContaining('init: unknown option "thread" (did you mean "threaded"?)'),
    });
    await expect(initThreads(new URL('file:///x.wasm') as never)).rejects.toMatchObject({
      code: 'InvalidArgument',
      message: expect.stringMatching(/takes \{ threaded, single, workers \}/),
    });
  });
});
