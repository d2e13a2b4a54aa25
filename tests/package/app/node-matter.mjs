// sweep-prune/matter from an ES module; argv[2] is where matter-js is (the consumer does not install it).
import { createRequire } from 'node:module';
import { init } from 'sweep-prune';
import { SweepPruneDetector } from 'sweep-prune/matter';

const require = createRequire(import.meta.url);
const { runMatterScene } = require('./matter-scene.cjs');
await init();
const Matter = require(process.argv[2]);
console.log(
  JSON.stringify({
    ...runMatterScene(Matter, SweepPruneDetector),
    resolved: import.meta.resolve('sweep-prune/matter'),
  }),
);
