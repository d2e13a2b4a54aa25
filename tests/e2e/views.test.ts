// A bounds view kept across a real growth of wasm memory in Chromium, from the built package: there the memory's
// buffer is resizable (WebAssembly.Memory toResizableBuffer), so the view outlives the growth and every write
// through it lands, checked against brute force over the positions the page wrote. The one event that still ends
// views there, the release of the blocks kept for disposed worlds' views, makes the next update throw StaleView until
// the view is taken again. tests/js/views.test.ts covers Node 20, which has no resizable buffers.
import { describe, expect, test } from 'vitest';
import { usePackagePages } from './package-pages';

const PAGE = `<!doctype html><html><head><link rel="icon" href="data:,"></head><body><script type="module">
import { init, World, memoryStats } from './a/index.js';
await init();
const boxes = [];
for (let i = 0; i < 10; i++) boxes.push([i * 2, 0, i * 2 + 1, 1]);
const overlap = (p, q) => p[0] <= q[2] && q[0] <= p[2] && p[1] <= q[3] && q[1] <= p[3];
const bruteForce = (ids) => {
  const out = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++)
      if (overlap(boxes[i], boxes[j])) out.push([Math.min(ids[i], ids[j]), Math.max(ids[i], ids[j])].join());
  return out.sort();
};
const pairsOf = (view) => {
  const out = [];
  for (let i = 0; i < view.length; i += 2) out.push([view[i], view[i + 1]].join());
  return out.sort();
};
const w = new World();
const ids = boxes.map((b) => w.addBox(b.slice(0, 2), b.slice(2)));
w.update();
const bounds = w.bounds; // taken once
const frame = (view, dx) => {
  boxes.forEach((b, i) => {
    b[0] += dx; b[2] += dx;
    // element by element, as a game loop writes (set() on a detached view throws; these are dropped in silence)
    for (let k = 0; k < 4; k++) view[w.offsetOf(ids[i]) + k] = b[k];
  });
};
const growths = memoryStats().growths;
const big = new World({ capacity: 1 << 20 }); // more than the memory holds: it grows
const grew = memoryStats().growths > growths;
// boxes alternately moved onto their neighbours and back, through the view taken before the growth
frame(bounds, 0);
for (let i = 0; i < boxes.length; i += 2) { boxes[i][2] += 1.5; }
frame(bounds, 0);
w.update();
const afterGrowth = { kept: w.bounds === bounds, same: JSON.stringify(pairsOf(w.pairs)) === JSON.stringify(bruteForce(ids)),
  pairs: w.pairCount };
big.dispose();
// a result text read from the resizable memory (TextDecoder refuses views of resizable buffers)
let stale = '';
const gone = w.addBox([100, 100], [101, 101]);
w.removeBox(gone);
try { w.removeBox(gone); } catch (e) { stale = e.code + ': ' + e.message; }
// worlds made and dropped with views taken, until the blocks kept for them are given back: every view ends
const releases = memoryStats().releases;
for (let round = 0; round < 300 && memoryStats().releases === releases; round++) {
  const o = new World({ capacity: 20000 });
  o.addBox([0, 0], [1, 1]);
  void o.bounds;
  o.dispose();
}
const released = memoryStats().releases > releases;
frame(bounds, 0.25);
let afterRelease = '';
try { w.update(); } catch (e) { afterRelease = e.code + ': ' + e.message; }
let again = '';
try { w.update(); } catch (e) { again = e.code; }
frame(w.bounds, 0);
w.update();
const retaken = JSON.stringify(pairsOf(w.pairs)) === JSON.stringify(bruteForce(ids));
window.result = { toResizableBuffer: typeof WebAssembly.Memory.prototype.toResizableBuffer,
  survive: memoryStats().viewsSurviveGrowth, grew, afterGrowth, stale, released, afterRelease, again, retaken };
</script></body></html>`;

const pages = usePackagePages();

describe('a kept bounds view in Chromium', () => {
  test('outlives a growth of memory (resizable buffer), and a release of kept blocks throws StaleView until taken again', async () => {
    const r = await pages.run(PAGE, false);
    expect(r).toMatchObject({ toResizableBuffer: 'function', survive: true, grew: true });
    expect(r.afterGrowth).toEqual({ kept: true, same: true, pairs: 5 });
    expect(r.stale).toMatch(/^StaleBox: removeBox\(\d+\): stale box id/);
    expect(r.released).toBe(true);
    expect(r.afterRelease).toMatch(/^StaleView: update: the world\.bounds view taken before has ended/);
    expect(r.again).toBe('StaleView'); // every update, until the view is taken again
    expect(r.retaken).toBe(true);
  });
});
