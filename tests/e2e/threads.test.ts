// sweep-prune/threads in real Chromium, from the built package (dist/, as npm ships it): a cross-origin-isolated page
// (COOP same-origin, COEP require-corp) runs a world on 2 threads (module Workers over a shared memory) and gets the
// single-threaded module's pairs, began, ended and counters after every update; the same page without the headers
// falls back to one thread with its documented warning and the same answers.
import { describe, expect, test } from 'vitest';
import { usePackagePages } from './package-pages';

// The page: the package twice, under /a/ and /b/, so that the single-threaded entry and the threaded one each load
// their own engine; a seeded scene moved for 12 frames (one of them a rebuild) through both.
const PAGE = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body><script type="module">
import * as single from './a/index.js';
import * as threaded from './b/threads.js';
const warnings = [];
const warn = console.warn;
console.warn = (...args) => { warnings.push(args.join(' ')); warn(...args); };
await single.init();
const start = performance.now();
await threaded.init();
const initMs = performance.now() - start;
let seed = 11;
const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
const s = new single.World();
const t = new threaded.World({ threads: 2 });
const n = 40000;
const bounds = new Float32Array(4 * n);
for (let i = 0; i < n; i++) {
  const x = random() * 1000, y = random() * 1000, w = random() * 4;
  bounds.set([x, y, x + w, y + w], 4 * i);
}
s.addBoxes(bounds);
t.addBoxes(bounds);
// init() resolved with the worker ready: it runs from the first update (world.threads counts the threads running)
const started = t.threads;
const same = (p, q) => p.length === q.length && p.every((v, i) => v === q[i]);
let equal = true;
let pairs = 0;
for (let frame = 0; frame < 12; frame++) {
  const a = s.bounds, b = t.bounds;
  const step = frame === 6 ? 300 : 0.5;
  for (let i = 0; i < a.length; i += 4) {
    const dx = (random() - 0.5) * step, dy = (random() - 0.5) * step;
    a[i] = b[i] = a[i] + dx; a[i + 2] = b[i + 2] = a[i + 2] + dx;
    a[i + 1] = b[i + 1] = a[i + 1] + dy; a[i + 3] = b[i + 3] = a[i + 3] + dy;
  }
  s.update();
  t.update();
  equal &&= same(s.pairs, t.pairs) && same(s.began, t.began) && same(s.ended, t.ended);
  equal &&= JSON.stringify(s.counters) === JSON.stringify(t.counters);
  pairs = t.pairCount;
}
const threads = t.threads;
const fewer = t.updatesOnFewerThreads;
t.dispose();
window.result = { isolated: crossOriginIsolated, threaded: threaded.isThreaded(), started, threads, fewer, equal,
  pairs, warnings, reason: threaded.threadsUnavailableReason() ?? null, initMs };
</script></body></html>`;

const pages = usePackagePages();

const run = (isolated: boolean): Promise<Record<string, unknown>> => pages.run(PAGE, isolated);

describe('sweep-prune/threads in Chromium', () => {
  test('a cross-origin-isolated page runs a world on 2 threads and gets the single-threaded answers', async () => {
    const result = await run(true);
    expect(result).toMatchObject({ isolated: true, threaded: true, started: 2, threads: 2, equal: true, warnings: [] });
    expect(result).toMatchObject({ fewer: 0 }); // every update ran with the worker in, the first included
    console.log(`init() of sweep-prune/threads in Chromium, its worker ready: ${Number(result.initMs).toFixed(1)} ms`);
    expect(result.pairs).toBeGreaterThan(1000);
  });

  test('a page that is not isolated falls back to one thread, warns once, and gets the same answers', async () => {
    const result = await run(false);
    expect(result).toMatchObject({ isolated: false, threaded: false, threads: 1, equal: true, workers: 0 });
    expect(result.fewer).toBe(12); // each of the 12 updates ran on 1 of the 2 threads asked for
    expect(result.reason).toMatch(/not cross-origin isolated/);
    expect(result.warnings).toHaveLength(1);
    expect((result.warnings as string[])[0]).toMatch(
      /asked for 2 threads and runs on one: this page is not cross-origin/,
    );
  });
});
