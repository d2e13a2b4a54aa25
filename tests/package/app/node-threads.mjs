// sweep-prune/threads in Node: the threaded module from the package, the seeded scene checked against brute force,
// then a world on 2 threads against one on 1 thread after every update. Nothing is disposed at the end: the script
// must exit by itself (the workers do not keep Node alive).
import * as sp from 'sweep-prune/threads';
import { runScene } from './scene.mjs';

await sp.init();
const scene = runScene(sp);
let seed = 7;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const one = new sp.World({ threads: 1 });
const two = new sp.World({ threads: 2 });
const bounds = new Float32Array(4 * 40000);
for (let i = 0; i < bounds.length; i += 4) {
  const x = random() * 1000;
  const y = random() * 1000;
  bounds.set([x, y, x + 2, y + 2], i);
}
one.addBoxes(bounds);
two.addBoxes(bounds);
let same = true;
for (let frame = 0; frame < 10; frame++) {
  const a = one.bounds;
  const b = two.bounds;
  for (let i = 0; i < a.length; i++) a[i] = b[i] = a[i] + ((((i >> 2) + (i & 1) + frame) % 3) - 1) * 0.3;
  one.update();
  two.update();
  const p = one.pairs;
  const q = two.pairs;
  same &&= p.length === q.length && p.every((v, i) => v === q[i]);
  same &&= one.began.length === two.began.length && one.ended.length === two.ended.length;
}
console.log(JSON.stringify({ ...scene, threaded: sp.isThreaded(), threads: two.threads, same, pairs2: two.pairCount }));
