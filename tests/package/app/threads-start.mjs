// sweep-prune/threads started however Node runs a program (tests/package/threads-start.test.ts runs this from a
// file, -e, -p, stdin, the REPL and with a loader): a world of 2 threads updated without yielding to the event loop
// until world.threads says its worker runs, then 20 updates more; the same pairs as a world of 1 thread after each.
// Then it yields, which is when a worker that failed to start would be reported. Prints one line: RESULT {...}.
import * as sp from 'sweep-prune/threads';
import { twinWorlds } from './twin-worlds.mjs';

await sp.init();
const { two, frame } = twinWorlds(sp);
let same = true;
let frames = 0;
const step = () => {
  same &&= frame();
  frames++;
};

// no yield from here: the worker's messages wait for the event loop, its count in shared memory does not
const deadline = Date.now() + 10_000;
while (two.threads < 2 && Date.now() < deadline) step();
const started = two.threads;
const beforeStart = frames;
const fewer = two.updatesOnFewerThreads;
for (let f = 0; f < 20; f++) step();
const fewerAfter = two.updatesOnFewerThreads;

await new Promise((resolve) => setTimeout(resolve, 200));
let error;
try {
  step();
} catch (e) {
  error = `${e.code}: ${e.message}`;
}
console.log(
  'RESULT ' +
    JSON.stringify({
      threaded: sp.isThreaded(),
      reason: sp.threadsUnavailableReason() ?? null,
      started,
      beforeStart,
      fewer,
      fewerAfter,
      threads: two.threads,
      error: error ?? null,
      same,
      pairs: two.pairCount,
    }),
);
