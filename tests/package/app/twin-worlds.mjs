// Two worlds of the same 40 000 boxes (more moving boxes than the engine's threshold for threads, 32768), one on 1
// thread and one on 2 (node-threads.mjs, threads-start.mjs). `frame()` moves every box of both alike and updates
// them, and returns whether the 2-thread world's pairs (and its began and ended counts) were the 1-thread one's.
export function twinWorlds(sp) {
  const one = new sp.World({ threads: 1 });
  const two = new sp.World({ threads: 2 });
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const bounds = new Float32Array(4 * 40000);
  for (let i = 0; i < bounds.length; i += 4) {
    const x = random() * 1000;
    const y = random() * 1000;
    bounds.set([x, y, x + 2, y + 2], i);
  }
  one.addBoxes(bounds);
  two.addBoxes(bounds);
  let frames = 0;
  const frame = () => {
    const a = one.bounds;
    const b = two.bounds;
    for (let i = 0; i < a.length; i++) a[i] = b[i] = a[i] + ((((i >> 2) + (i & 1) + frames) % 3) - 1) * 0.3;
    frames++;
    one.update();
    two.update();
    const p = one.pairs;
    const q = two.pairs;
    return (
      p.length === q.length &&
      p.every((v, i) => v === q[i]) &&
      one.began.length === two.began.length &&
      one.ended.length === two.ended.length
    );
  };
  return { one, two, frame };
}
