// One program that imports and requires the package: two copies, each with its own engine. After init() from an
// import, sweep-prune/matter and sweep-prune/planck through require() are the CommonJS copy: each error names that
// copy, the entry that raised it and the call that initialises it, and that call works. argv[2] is where matter-js
// is, argv[3] where planck is.
import { createRequire } from 'node:module';
import { init } from 'sweep-prune';

const require = createRequire(import.meta.url);
await init();
const { SweepPruneDetector } = require('sweep-prune/matter');
const { useSweepPrune } = require('sweep-prune/planck');
const Matter = require(process.argv[2]);
const planck = require(process.argv[3]);
const caught = (f) => {
  try {
    f();
  } catch (e) {
    return { code: e.code, message: e.message };
  }
};
const error = caught(() => new SweepPruneDetector(Matter));
const planckError = caught(() => useSweepPrune(new planck.World()));
await require('sweep-prune').init(); // as the message says
const detector = new SweepPruneDetector(Matter);
detector.dispose();
console.log(JSON.stringify({ error, planckError, after: detector.disposed }));
