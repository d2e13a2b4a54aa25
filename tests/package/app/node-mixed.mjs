// One program that imports and requires the package: two copies, each with its own engine. After init() from an
// import, sweep-prune/matter through require() is the CommonJS copy: its error names that copy and the call that
// initialises it, and that call works. argv[2] is where matter-js is.
import { createRequire } from 'node:module';
import { init } from 'sweep-prune';

const require = createRequire(import.meta.url);
await init();
const { SweepPruneDetector } = require('sweep-prune/matter');
const Matter = require(process.argv[2]);
let error;
try {
  new SweepPruneDetector(Matter);
} catch (e) {
  error = { code: e.code, message: e.message };
}
await require('sweep-prune').init(); // as the message says
const detector = new SweepPruneDetector(Matter);
detector.dispose();
console.log(JSON.stringify({ error, after: detector.disposed }));
