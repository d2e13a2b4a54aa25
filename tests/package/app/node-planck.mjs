// sweep-prune/planck from an ES module; argv[2] is where planck is (the consumer does not install it).
import { createRequire } from 'node:module';
import { init } from 'sweep-prune';
import { stopSweepPrune, useSweepPrune } from 'sweep-prune/planck';

const require = createRequire(import.meta.url);
const { runPlanckScene } = require('./planck-scene.cjs');
await init();
const planck = await import(`${process.argv[2]}/dist/planck.mjs`);
console.log(
  JSON.stringify({
    ...runPlanckScene(planck, useSweepPrune, stopSweepPrune),
    resolved: import.meta.resolve('sweep-prune/planck'),
  }),
);
