// sweep-prune/threads in Node: the threaded module from the package, the seeded scene checked against brute force,
// then a world on 2 threads against one on 1 thread after every update. Nothing is disposed at the end: the script
// must exit by itself (the workers do not keep Node alive).
import * as sp from 'sweep-prune/threads';
import { runScene } from './scene.mjs';
import { twinWorlds } from './twin-worlds.mjs';

await sp.init();
const scene = runScene(sp);
const { two, frame } = twinWorlds(sp);
// world.threads counts the workers running: the worker starts within tens of milliseconds
for (const end = Date.now() + 10_000; two.threads < 2 && Date.now() < end;) await new Promise((r) => setTimeout(r, 10));
let same = true;
for (let f = 0; f < 10; f++) same &&= frame();
console.log(JSON.stringify({ ...scene, threaded: sp.isThreaded(), threads: two.threads, same, pairs2: two.pairCount }));
