// sweep-prune/threads in Node: worlds on 1, 2, 3 and 8 threads (real worker_threads over one shared memory) against
// brute force, and byte-equal to the single-threaded module after every update; views kept past their lifetime;
// the lifecycle of the workers; bad options; a worker that fails.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { bruteForce, gridPairs, mulberry32, pairSet, randomBox, type Box } from './oracle.js';

type Entry = typeof import('../../web/src/threads.js');
type AnyWorld = InstanceType<Entry['World']>;
let single: typeof import('../../web/src/index.js');
let threads: Entry;
let pools: typeof import('../../web/src/threads-pool.js');

beforeAll(async () => {
  single = await import('../../web/src/index.js');
  await single.init();
  // a second copy of the wrapper, with its own engine: the threaded module
  vi.resetModules();
  threads = await import('../../web/src/threads.js');
  pools = await import('../../web/src/threads-pool.js');
  await threads.init({ workers: SPARES });
});

afterAll(() => pools.setWorkerUrlForTests(undefined));

const COUNTS = [1, 2, 3, 8];
const SPARES = 1; // workers init() starts and keeps ready for the next pool

/** Resolves when every worker of the world is inside spPool_Work (so that updates are shared, not done by the
 * caller alone): `world.threads` counts them. */
async function allThreadsRunning(w: AnyWorld, n: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (w.threads < n) {
    if (Date.now() > deadline) throw new Error(`${w.threads} of ${n} threads running`);
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(w.threads).toBe(n);
}

async function threadedWorld(n: number, dimensions = 2): Promise<AnyWorld> {
  const w = new threads.World({ dimensions, threads: n });
  await allThreadsRunning(w, n);
  return w;
}

function sameUint32(what: string, got: Uint32Array, want: Uint32Array): void {
  if (got.length !== want.length || got.some((v, i) => v !== want[i])) {
    expect.fail(`${what}: ${got.length / 2} pairs differ from the single-threaded module's ${want.length / 2}`);
  }
}

// A world on the threaded module and one on the single-threaded module, driven alike.
class Twin {
  readonly ids: number[] = [];
  readonly boxes = new Map<number, Box>();
  constructor(
    readonly t: AnyWorld,
    readonly s: InstanceType<typeof single.World>,
  ) {}

  add(b: Box): void {
    const id = this.t.addBox(b.min, b.max);
    expect(this.s.addBox(b.min, b.max)).toBe(id);
    this.ids.push(id);
    this.boxes.set(id, b);
  }

  remove(k: number): void {
    const id = this.ids.splice(k % this.ids.length, 1)[0]!;
    this.t.removeBox(id);
    this.s.removeBox(id);
    this.boxes.delete(id);
  }

  // moves every box by `step` (through the bounds view, as a game does), or to a new place (`teleport`)
  move(rand: () => number, step: number, teleport: boolean): void {
    const d = this.t.dimensions;
    const tb = this.t.bounds;
    const sb = this.s.bounds;
    for (const id of this.ids) {
      const o = this.t.offsetOf(id);
      const b = this.boxes.get(id)!;
      for (let a = 0; a < d; a++) {
        const dx = teleport ? rand() * 100 - b.min[a]! : (rand() - 0.5) * step;
        b.min[a] = Math.fround(b.min[a]! + dx);
        b.max[a] = Math.fround(b.max[a]! + dx);
        tb[o + a] = sb[o + a] = b.min[a]!;
        tb[o + d + a] = sb[o + d + a] = b.max[a]!;
      }
    }
  }

  update(oracle: boolean): void {
    this.t.update();
    this.s.update();
    sameUint32('pairs', this.t.pairs, this.s.pairs);
    sameUint32('began', this.t.began, this.s.began);
    sameUint32('ended', this.t.ended, this.s.ended);
    expect(this.t.counters).toEqual(this.s.counters);
    if (oracle)
      expect(pairSet(this.t.pairs)).toEqual(this.boxes.size > 3000 ? gridPairs(this.boxes, 2) : bruteForce(this.boxes));
  }

  dispose(): void {
    this.t.dispose();
    this.s.dispose();
  }
}

describe('threaded worlds give the single-threaded answers', () => {
  for (const n of COUNTS) {
    test(`${n} thread${n > 1 ? 's' : ''}: dense slabs, one huge box, churn and rebuild frames, against brute force`, async () => {
      const rand = mulberry32(100 + n);
      const twin = new Twin(await threadedWorld(n), new single.World());
      // past the engine's threshold for threads (SP_PARALLEL_MIN_BOXES, 32768 moving boxes); dense: many boxes in a
      // corner, so some slabs hold hundreds of pairs
      for (let i = 0; i < 34000; i++) twin.add(randomBox(rand, 2, i % 5 === 0 ? 0.01 : 0.004));
      for (let i = 0; i < 600; i++) {
        const x = rand() * 8;
        const y = rand() * 8;
        twin.add({ min: [x, y], max: [x + 1.5, y + 1.5] });
      }
      twin.update(true);
      // one box over everything
      twin.add({ min: [-1, -1], max: [101, 101] });
      twin.update(false);
      for (let frame = 0; frame < 12; frame++) {
        if (frame % 4 === 3) {
          twin.move(rand, 0, true); // a rebuild frame
        } else {
          for (let i = 0; i < 300; i++) twin.remove(Math.floor(rand() * 1e9)); // churn
          for (let i = 0; i < 300; i++) twin.add(randomBox(rand, 2, 0.005));
          twin.move(rand, 1, false);
        }
        twin.update(frame % 4 === 3 || frame === 8);
      }
      twin.dispose();
    });
  }

  test('long random sequences in 1, 3 and 4 dimensions on 8, 3 and 2 threads: byte-equal after every update', async () => {
    for (const [seed, n, d] of [
      [1, 2, 4],
      [2, 3, 3],
      [3, 8, 1],
    ] as const) {
      const rand = mulberry32(seed);
      const twin = new Twin(await threadedWorld(n, d), new single.World({ dimensions: d }));
      for (let i = 0; i < 34000; i++) twin.add(randomBox(rand, d, 0.003));
      for (let frame = 0; frame < 10; frame++) {
        const r = rand();
        if (r < 0.1) twin.move(rand, 0, true);
        else twin.move(rand, 0.5, false);
        if (r > 0.7) {
          for (let i = 0; i < 200; i++) twin.remove(Math.floor(rand() * 1e9));
          for (let i = 0; i < 150; i++) twin.add(randomBox(rand, d, 0.01));
        }
        twin.update(false);
      }
      twin.dispose();
    }
  });

  test('a large scene (the size where threads are used) is byte-equal after every update', async () => {
    const rand = mulberry32(9);
    const twin = new Twin(await threadedWorld(2), new single.World());
    const bounds = new Float32Array(4 * 60000);
    for (let i = 0; i < 60000; i++) {
      const b = randomBox(rand, 2, 0.002);
      bounds.set([b.min[0]!, b.min[1]!, b.max[0]!, b.max[1]!], 4 * i);
    }
    const ids = twin.t.addBoxes(bounds);
    sameUint32('ids', ids, twin.s.addBoxes(bounds));
    for (let frame = 0; frame < 8; frame++) {
      const tb = twin.t.bounds;
      const sb = twin.s.bounds;
      const step = frame === 5 ? 40 : 0.05;
      for (let i = 0; i < tb.length; i += 4) {
        const dx = (rand() - 0.5) * step;
        const dy = (rand() - 0.5) * step;
        tb[i] = sb[i] = tb[i]! + dx;
        tb[i + 1] = sb[i + 1] = tb[i + 1]! + dy;
        tb[i + 2] = sb[i + 2] = tb[i + 2]! + dx;
        tb[i + 3] = sb[i + 3] = tb[i + 3]! + dy;
      }
      twin.update(false);
    }
    twin.dispose();
  });
});

describe('views kept past their lifetime never write into a world (shared memory cannot be detached)', () => {
  test('bounds, pairs, began and ended kept across the calls that move them, then overwritten', async () => {
    const rand = mulberry32(18);
    const w = await threadedWorld(2);
    const other = await threadedWorld(2);
    const boxes = new Map<number, Box>();
    const add = (count: number): void => {
      for (let i = 0; i < count; i++) {
        const b = randomBox(rand, 2, 0.08);
        boxes.set(w.addBox(b.min, b.max), b);
      }
    };
    add(40);
    w.update();
    const kept = [w.bounds, w.pairs, w.began, w.ended, other.bounds];
    add(4000); // every array grows, and moves
    w.update();
    other.addBox([0, 0], [1, 1]);
    for (const view of kept) {
      for (let i = 0; i < view.length; i++) view[i] = view instanceof Float32Array ? NaN : 0xffffffff;
    }
    // the world is intact: its stored bounds and its pairs are what was put in; the writes into the ended bounds
    // view are reported by the update that would have lost them, which changes nothing
    for (const [id, b] of boxes) expect(w.getBox(id)).toEqual({ min: b.min, max: b.max });
    expect(() => w.update()).toThrowError(expect.objectContaining({ code: 'StaleView' }));
    w.update();
    expect(pairSet(w.pairs)).toEqual(bruteForce(boxes));
    expect(other.boxCount).toBe(1);
    other.update();
    expect(other.pairCount).toBe(0);
    w.dispose();
    other.dispose();
  });

  test('views kept across dispose do not reach the next world', async () => {
    const w = await threadedWorld(2);
    w.addBox([0, 0], [1, 1]);
    w.addBox([0.5, 0.5], [2, 2]);
    w.update();
    const views = [w.bounds, w.pairs, w.began, w.ended];
    w.dispose();
    const next = await threadedWorld(2);
    const a = next.addBox([0, 0], [1, 1]);
    for (let i = 0; i < 20; i++) next.addBox([10 + i, 10], [10.5 + i, 10.5]);
    for (const v of views) for (let i = 0; i < v.length; i++) v[i] = NaN;
    expect(next.getBox(a)).toEqual({ min: [0, 0], max: [1, 1] });
    next.update();
    expect(next.pairCount).toBe(0);
    next.dispose();
  });

  test('what the quarantine keeps is bounded by the arrays grown', async () => {
    const w = await threadedWorld(2);
    const before = (await rawOf()).sp_quarantined_bytes!();
    for (let i = 0; i < 20000; i++) {
      w.addBox([i, 0], [i + 0.5, 1]);
      void w.bounds; // a view of every size the bounds array passes through
    }
    const kept = (await rawOf()).sp_quarantined_bytes!() - before;
    // the bounds grow 1.5x at a time: everything they left behind is less than 3 times their final size
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(3 * 20000 * 16);
    w.dispose();
  });

  test('a game loop that reads every view each frame keeps nothing more once its arrays stop growing', async () => {
    const rand = mulberry32(5);
    const w = await threadedWorld(2);
    const ids: number[] = [];
    const frame = (): void => {
      for (let i = 0; i < 200; i++) {
        const b = randomBox(rand, 2, 0.005);
        ids.push(w.addBox(b.min, b.max));
      }
      for (let i = 0; i < 200; i++) w.removeBox(ids.splice(Math.floor(rand() * ids.length), 1)[0]!);
      const v = w.bounds;
      for (let i = 0; i < v.length; i++) v[i] = v[i]! + 0; // a write through the view, as a game moves boxes
      w.update();
      void [w.pairs, w.began, w.ended];
    };
    for (let i = 0; i < 10000; i++) {
      const b = randomBox(rand, 2, 0.005);
      ids.push(w.addBox(b.min, b.max));
    }
    for (let f = 0; f < 20; f++) frame();
    const settled = (await rawOf()).sp_quarantined_bytes!();
    for (let f = 0; f < 60; f++) frame();
    expect((await rawOf()).sp_quarantined_bytes!()).toBe(settled);
    w.dispose();
  });
});

async function rawOf(): Promise<import('../../web/src/raw.js').RawExports> {
  const loader = await import('../../web/src/loader.js');
  return loader.getEngine();
}

describe('lifecycle', () => {
  test('many worlds made and disposed leave no worker behind but the spares; worlds with the same count share workers', async () => {
    const before = SPARES; // every world of the tests above was disposed
    const allEnded = async (): Promise<void> => {
      const deadline = Date.now() + 10_000;
      while (pools.liveWorkerCount() > before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(pools.liveWorkerCount()).toBe(before);
    };
    await allEnded();
    for (let round = 0; round < 4; round++) {
      const worlds = [2, 3, 3, 8, 2, 1].map((n) => new threads.World({ threads: n }));
      // a pool per thread count: 1 + 2 + 7 workers, however many worlds use them, and the spares topped up again
      expect(pools.liveWorkerCount() - before).toBe(10);
      for (const w of worlds) {
        w.addBox([0, 0], [1, 1]);
        w.update();
        w.dispose();
      }
      await allEnded();
    }
    // worlds disposed before their workers even started
    for (let i = 0; i < 20; i++) new threads.World({ threads: 2 + (i % 3) }).dispose();
    await allEnded();
  });

  test('threads asked of an engine loaded single-threaded fall back to one thread and warn once, naming the fix', async () => {
    vi.resetModules(); // a fresh copy of the wrapper, whose first init() is the default entry's
    const first = await import('../../web/src/index.js');
    const late = await import('../../web/src/threads.js');
    expect(late.threadsUnavailableReason()).toBeUndefined(); // nothing loaded yet: threads can run here
    await first.init(); // as a top-level init() in any module imported first does
    const loadedFirst =
      /the single-threaded engine was loaded first .*call init\(\) of sweep-prune\/threads before any other/;
    expect(late.isThreaded()).toBe(false);
    expect(late.threadsUnavailableReason()).toMatch(loadedFirst);
    await late.init();
    expect(late.isThreaded()).toBe(false);
    expect(late.threadsUnavailableReason()).toMatch(loadedFirst);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const worlds = [new late.World({ threads: 2 }), new first.World({ threads: 3 })];
      expect(worlds.map((w) => w.threads)).toEqual([1, 1]);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(
        /asked for 2 threads and runs on one: .*call init\(\) of sweep-prune\/threads before any other/,
      );
      for (const w of worlds) {
        w.addBox([0, 0], [1, 1]);
        w.addBox([0.5, 0.5], [2, 2]);
        w.update();
        w.update();
        expect(w.pairCount).toBe(1);
        expect(w.updatesOnFewerThreads).toBe(2); // each ran on 1 of the threads asked for
        w.dispose();
      }
    } finally {
      warn.mockRestore();
    }
  });

  test('init() resolves with its workers ready: a world of 2 threads runs its first update on 2', async () => {
    vi.resetModules(); // a fresh copy of the wrapper: its own engine and workers
    const fresh = (await import('../../web/src/threads.js')) as Entry;
    const start = performance.now();
    await fresh.init({ workers: 2 });
    const initMs = performance.now() - start;
    const w = new fresh.World({ threads: 2 });
    expect(w.threads).toBe(2); // no wait: the worker entered the pool before new World returned
    // a scene large enough for the pool (100k moving boxes), updated without yielding
    const rand = mulberry32(40);
    w.addBoxes(Array.from({ length: 100_000 }, () => randomBox(rand, 2, 0.001)).flatMap((b) => [...b.min, ...b.max]));
    for (let i = 0; i < 5; i++) w.update();
    expect(w.updatesOnFewerThreads).toBe(0);
    // the second spare serves a world of another count at once too, while the first world runs
    const other = new fresh.World({ threads: 2 + 1 });
    expect(other.threads).toBeGreaterThanOrEqual(2);
    console.log(`init() of sweep-prune/threads with 2 workers ready: ${initMs.toFixed(1)} ms`);
    w.dispose();
    other.dispose();
  });

  test('init() checks options.workers: an integer from 0 to 63', async () => {
    for (const bad of [-1, 64, 1.5, '2', null]) {
      await expect(threads.init({ workers: bad as number })).rejects.toMatchObject({
        code: 'InvalidArgument',
        message: expect.stringMatching(/options\.workers must be an integer from 0 to 63/),
      });
    }
  });

  test('bad thread counts throw InvalidArgument and make nothing', () => {
    const before = pools.liveWorkerCount();
    for (const bad of [0, 1.5, 65, -1, NaN, '2' as unknown as number]) {
      let error: unknown;
      try {
        new threads.World({ threads: bad });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(threads.SweepPruneError);
      expect((error as InstanceType<typeof threads.SweepPruneError>).code).toBe('InvalidArgument');
      expect((error as Error).message).toMatch(/new World: options\.threads must be an integer from 1 to 64/);
    }
    expect(pools.liveWorkerCount()).toBe(before);
  });

  test('a world of 1 thread never counts an update as made on fewer threads', () => {
    const w = new threads.World({ threads: 1 });
    w.addBox([0, 0], [1, 1]);
    for (let i = 0; i < 3; i++) w.update();
    expect(w.threads).toBe(1);
    expect(w.updatesOnFewerThreads).toBe(0);
    w.dispose();
  });

  test('a worker that fails surfaces as WorkerFailed on the next update, with nothing changed', async () => {
    pools.setWorkerUrlForTests(() => new URL('./no-such-worker.js', import.meta.url));
    const before = pools.liveWorkerCount();
    const w = new threads.World({ threads: 5 }); // a count no other test uses: a pool of its own
    pools.setWorkerUrlForTests(undefined);
    w.addBox([0, 0], [1, 1]);
    w.addBox([0.5, 0.5], [2, 2]);
    // before the program yields, the failure is not known yet: the world says what runs (one thread, no worker
    // ever entered the pool) and counts the update made so
    expect(w.threads).toBe(1);
    w.update();
    expect(w.pairCount).toBe(1);
    expect(w.updatesOnFewerThreads).toBe(1);
    w.addBox([0.6, 0.6], [0.7, 0.7]); // inside both: 3 pairs once an update runs
    // the workers fail to load their script, and exit
    const deadline = Date.now() + 10_000;
    while (pools.liveWorkerCount() > before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(threads.isThreaded()).toBe(false);
    expect(threads.threadsUnavailableReason()).toMatch(/a worker thread failed to start or stopped \(.*no-such-worker/);
    let error: unknown;
    try {
      w.update();
    } catch (e) {
      error = e;
    }
    expect((error as { code?: string })?.code).toBe('WorkerFailed');
    expect(w.pairCount).toBe(1); // the update did not run
    expect(w.updatesOnFewerThreads).toBe(1);
    expect(w.threads).toBe(1);
    w.update(); // and the world goes on, on one thread
    expect(w.pairCount).toBe(3);
    expect(w.updatesOnFewerThreads).toBe(2);
    w.dispose();
    // workers that start again make threads available again
    const next = await threadedWorld(2);
    expect(threads.isThreaded()).toBe(true);
    expect(threads.threadsUnavailableReason()).toBeUndefined();
    next.dispose();
  });
});
