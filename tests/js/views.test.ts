// A bounds view taken once, the way game loops keep typed arrays: it keeps moving boxes across updates with growing
// pair counts, queries and another world's work; when it does end (the capacity grew, or wasm memory grew), the
// writes it would lose are reported, never dropped in silence. The same in the default, wasm and threads entries.
// The pairs are checked against brute force over the positions the test wrote. tests/e2e/views.test.ts runs the
// growth of memory in Chromium, whose resizable wasm memory buffers keep a view across it.
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { bruteForce, f32, mulberry32, pairSet, type Box } from './oracle.js';

type Entry = typeof import('../../web/src/index.js');

const entries: Record<string, Entry> = {};

beforeAll(async () => {
  // each entry is a separate copy of the wrapper with its own engine, as in a program that loads only that one
  const load = async (name: string, path: () => Promise<unknown>, init: (e: Entry) => Promise<void>) => {
    vi.resetModules();
    const entry = (await path()) as Entry;
    await init(entry);
    entries[name] = entry;
  };
  await load(
    'default',
    () => import('../../web/src/index.js'),
    (e) => e.init(),
  );
  await load(
    'wasm',
    () => import('../../web/src/wasm-entry.js'),
    (e) => e.init(),
  );
  await load(
    'threads',
    () => import('../../web/src/threads.js'),
    (e) => e.init(),
  );
});

/** Two columns of `perColumn` boxes each, 200 wide and `gap` apart on x: they cross over many frames. */
function columns(perColumn: number, gap: number): Box[] {
  const rand = mulberry32(30);
  const boxes: Box[] = [];
  for (const side of [0, 1]) {
    for (let i = 0; i < perColumn; i++) {
      const x = f32(side * gap + rand() * 200);
      const y = f32(rand() * 1000);
      boxes.push({ min: [x, y], max: [x + 8, y + 8] });
    }
  }
  return boxes;
}

function write(view: Float32Array, offset: number, b: Box): void {
  view[offset] = b.min[0]!;
  view[offset + 1] = b.min[1]!;
  view[offset + 2] = b.max[0]!;
  view[offset + 3] = b.max[1]!;
}

function move(b: Box, dx: number): void {
  b.min[0] = f32(b.min[0]! + dx);
  b.max[0] = f32(b.max[0]! + dx);
}

describe.each(['default', 'wasm', 'threads'])('%s entry', (name) => {
  const threads = name === 'threads' ? 2 : 1;

  test('a bounds view kept over 500 frames of growing pair counts, queries and another world keeps moving boxes', () => {
    const { World, memoryStats } = entries[name]!;
    const growths = memoryStats().growths;
    const w = new World({ threads });
    const other = new World({ threads });
    const scene = columns(1000, 250);
    const boxes = new Map<number, Box>();
    for (const b of scene) boxes.set(w.addBox(b.min, b.max), b);
    const bounds = w.bounds; // taken once
    let pairs = 0;
    let grew = 0;
    for (let frame = 0; frame < 500; frame++) {
      let i = 0;
      for (const [id, b] of boxes) {
        move(b, i++ < 1000 ? 1 : -1);
        write(bounds, w.offsetOf(id), b);
      }
      w.update();
      if (w.pairCount > pairs) grew += 1;
      pairs = w.pairCount;
      if (frame % 25 === 0 || frame === 499) expect(pairSet(w.pairs)).toEqual(bruteForce(boxes));
      // queries, events and another world's work, each of which allocates
      w.queryBox([0, 0], [800, 1500]);
      w.castRay([-10, 700], [1, 0]);
      void w.began;
      other.addBox([frame, 0], [frame + 50, 50]); // past its capacity again and again: its own bounds move
      other.update();
    }
    expect(grew).toBeGreaterThan(50); // the pairs grew over many frames (the lists reallocated)
    expect(w.bounds).toBe(bounds); // never ended
    expect(memoryStats().growths).toBe(growths);
    w.dispose();
    other.dispose();
  });

  test('a view ended by growing the capacity: the next update throws StaleView, changes nothing, and says what to do', () => {
    const { World } = entries[name]!;
    const w = new World({ threads, capacity: 64 });
    const boxes = new Map<number, Box>();
    for (let i = 0; i < 64; i++) {
      const b = { min: [i, 0], max: [i + 1.5, 1] };
      boxes.set(w.addBox(b.min, b.max), b);
    }
    const bounds = w.bounds;
    w.update();
    const before = pairSet(w.pairs);
    expect(w.capacity).toBe(64);
    const late = { min: [1000, 0], max: [1001, 1] };
    boxes.set(w.addBox(late.min, late.max), late); // the 65th box: the bounds move
    expect(w.capacity).toBeGreaterThan(64);
    // a frame through the ended view: every box moves right onto its neighbour
    for (const [id, b] of boxes) {
      move(b, 0.25);
      write(bounds, w.offsetOf(id), b);
    }
    let error: unknown;
    try {
      w.update();
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'StaleView' });
    expect((error as Error).message).toMatch(/world\.bounds again.*reserve/);
    expect(pairSet(w.pairs)).toEqual(before); // the frame was rejected
    // the fix the message names: take the view again and write the frame through it
    const live = w.bounds;
    for (const [id, b] of boxes) write(live, w.offsetOf(id), b);
    w.update();
    expect(pairSet(w.pairs)).toEqual(bruteForce(boxes));
    w.update(); // reported once: the next update goes on
    w.dispose();
  });

  test('adding boxes within the capacity keeps the view, and writes for the new boxes land', () => {
    const { World } = entries[name]!;
    const w = new World({ threads });
    w.reserve(100);
    const bounds = w.bounds;
    expect(bounds.length).toBe(w.capacity * 4);
    const boxes = new Map<number, Box>();
    for (let i = 0; i < 100; i++) {
      const b = { min: [i, 0], max: [i + 0.5, 1] };
      boxes.set(w.addBox(b.min, b.max), b);
    }
    expect(w.bounds).toBe(bounds);
    for (const [id, b] of boxes) {
      move(b, (id % 3) * 0.4);
      write(bounds, w.offsetOf(id), b);
    }
    w.update();
    expect(pairSet(w.pairs)).toEqual(bruteForce(boxes));
    w.dispose();
  });
});

describe('a growth of wasm memory', () => {
  const scene = (World: Entry['World'], threads: number) => {
    const w = new World({ threads });
    const boxes = new Map<number, Box>();
    for (let i = 0; i < 10; i++) {
      const b = { min: [i * 2, 0], max: [i * 2 + 1, 1] };
      boxes.set(w.addBox(b.min, b.max), b);
    }
    w.update();
    return { w, boxes, bounds: w.bounds };
  };

  // where the runtime has resizable wasm memory buffers, a growth ends no view (the same as shared memory)
  const resizable =
    typeof (WebAssembly.Memory.prototype as { toResizableBuffer?: unknown }).toResizableBuffer === 'function';

  test.each(['default', 'wasm'])(
    '%s entry: a kept view across a growth of memory never loses a write in silence',
    (name) => {
      const { World, memoryStats } = entries[name]!;
      const { w, boxes, bounds } = scene(World, 1);
      const before = pairSet(w.pairs);
      const growths = memoryStats().growths;
      const big = new World({ capacity: 1 << 20 }); // more than the memory holds: it grows
      expect(memoryStats().growths).toBeGreaterThan(growths);
      expect(memoryStats().bytes).toBeGreaterThan(16 << 20);
      expect(memoryStats().viewsSurviveGrowth).toBe(resizable);
      // a frame through the kept view: every box moves onto its neighbour
      for (const [id, b] of boxes) {
        move(b, 1.25);
        write(bounds, w.offsetOf(id), b);
      }
      if (resizable) {
        w.update();
        expect(pairSet(w.pairs)).toEqual(bruteForce(boxes));
      } else {
        expect(bounds.length).toBe(0); // detached: the writes left no trace
        // every call that reads the bounds throws until the view is taken again, and changes nothing
        for (const call of [() => w.update(), () => w.endpoints(0), () => w.update()]) {
          expect(call).toThrow(
            expect.objectContaining({
              code: 'StaleView',
              message: expect.stringMatching(/world\.bounds view taken before has ended.*Take world\.bounds again/),
            }),
          );
        }
        expect(pairSet(w.pairs)).toEqual(before);
        // the fix the message names: take the view again and write the frame through it
        const live = w.bounds;
        for (const [id, b] of boxes) write(live, w.offsetOf(id), b);
        w.update();
        expect(pairSet(w.pairs)).toEqual(bruteForce(boxes));
        w.update();
      }
      big.dispose();
      w.dispose();
    },
  );

  test('threads entry: a shared memory is never detached, so a kept view goes on moving boxes', () => {
    const { World, memoryStats } = entries['threads']!;
    const { w, boxes, bounds } = scene(World, 2);
    const growths = memoryStats().growths;
    const big = new World({ capacity: 1 << 20 });
    expect(memoryStats().growths).toBeGreaterThan(growths);
    expect(memoryStats().viewsSurviveGrowth).toBe(true);
    for (const [id, b] of boxes) {
      move(b, 1.25);
      write(bounds, w.offsetOf(id), b);
    }
    w.update();
    expect(pairSet(w.pairs)).toEqual(bruteForce(boxes));
    big.dispose();
    w.dispose();
  });
});

test('worlds made and disposed with views taken: the blocks kept for views stay bounded', () => {
  const { World, memoryStats } = entries['default']!;
  const before = memoryStats();
  for (let round = 0; round < 300; round++) {
    const w = new World({ capacity: 20000 }); // 320 kB of bounds, kept when disposed since a view was taken
    w.addBox([0, 0], [1, 1]);
    void w.bounds;
    w.update();
    void w.pairs;
    w.dispose();
  }
  // 300 worlds left about 100 MB of blocks behind their views: given back along the way, with no growth
  const stats = memoryStats();
  expect(stats.releases).toBeGreaterThan(before.releases);
  expect(stats.keptBytes).toBeLessThanOrEqual(Math.max(4 << 20, stats.bytes / 8));
  expect(stats.growths).toBe(before.growths);
});
