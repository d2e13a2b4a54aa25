// Soak: a million operations (adds, removes, moves) with constant handle reuse. Wasm memory stays under a stated
// bound, no stale handle is ever accepted, and the pairs still match brute force at the end.
import { beforeAll, expect, test } from 'vitest';
import { init, memoryStats, SweepPruneError, World } from '../../web/src/index.js';
import { bruteForce, mulberry32, pairSet, type Box } from './oracle.js';

beforeAll(() => init());

// The bound on the top of the engine's heap: a world of at most 2000 live boxes owns about 0.3 MB. 4 MB leaves room
// for allocator slack and still catches a per-operation leak: a million operations leaking 4 bytes each would not fit.
const MEMORY_BOUND = 4 * 2 ** 20;

test('1M operations of churn: memory stays bounded and stale ids are never accepted', () => {
  const rand = mulberry32(99);
  const w = new World({ dimensions: 2 });
  try {
    const live: number[] = [];
    const where = new Map<number, number>(); // id -> index in live
    const boxes = new Map<number, Box>();
    const stale: number[] = [];
    let staleChecks = 0;
    let maxMemory = 0;
    const OPS = 1_000_000;
    for (let op = 0; op < OPS; op++) {
      const target = Math.floor(op / 50_000) % 2 === 0 ? 2000 : 200;
      const r = rand();
      if (live.length === 0 || (r < 0.4 && live.length < target)) {
        const x = rand() * 1000;
        const y = rand() * 1000;
        const id = w.addBox([x, y], [x + 10, y + 10]);
        where.set(id, live.length);
        live.push(id);
        boxes.set(id, { min: [Math.fround(x), Math.fround(y)], max: [Math.fround(x + 10), Math.fround(y + 10)] });
      } else if (r < 0.7) {
        const i = Math.floor(rand() * live.length);
        const id = live[i]!;
        w.removeBox(id);
        const last = live.pop()!;
        if (last !== id) {
          live[i] = last;
          where.set(last, i);
        }
        where.delete(id);
        boxes.delete(id);
        stale.push(id);
        if (stale.length > 4096) stale.splice(0, 2048);
      } else {
        // move through the bounds view (the fast path)
        const id = live[Math.floor(rand() * live.length)]!;
        const o = w.offsetOf(id);
        const view = w.bounds;
        const dx = (rand() - 0.5) * 4;
        view[o] = view[o]! + dx;
        view[o + 2] = view[o + 2]! + dx;
        const b = boxes.get(id)!;
        b.min[0] = view[o]!;
        b.max[0] = view[o + 2]!;
      }
      // a random old id: never valid again, however often its slot was reused
      if (stale.length > 0) {
        const old = stale[Math.floor(rand() * stale.length)]!;
        if (w.isBoxValid(old)) throw new Error(`op ${op}: stale id ${old} accepted`);
        if (op % 1000 === 0) {
          let code = '';
          try {
            w.removeBox(old);
          } catch (e) {
            code = (e as SweepPruneError).code;
          }
          expect(code).toBe('StaleBox');
        }
        staleChecks++;
      }
      if (op % 1000 === 999) {
        w.update();
        maxMemory = Math.max(maxMemory, memoryStats().heapBytes);
      }
    }
    w.update();
    expect(w.boxCount).toBe(live.length);
    expect(pairSet(w.pairs)).toEqual(bruteForce(boxes));
    expect(staleChecks).toBeGreaterThan(OPS * 0.9);
    expect(maxMemory).toBeLessThanOrEqual(MEMORY_BOUND);
    console.log(`soak: ${OPS} ops, heap peak ${(maxMemory / 2 ** 20).toFixed(1)} MB, world ${w.byteCount} bytes`);
  } finally {
    w.dispose();
  }
});
