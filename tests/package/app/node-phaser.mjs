// sweep-prune/phaser from an ES module; argv[2] is where phaser is (the consumer does not install it), argv[3] the
// repo's headless runner (web/scripts/phaser-headless.mjs).
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { init } from 'sweep-prune';
import { usePhaserArcade } from 'sweep-prune/phaser';

const require = createRequire(import.meta.url);
const { runPhaserScene } = require('./phaser-scene.cjs');
const { createGame, loadPhaser } = await import(pathToFileURL(process.argv[3]).href);
await init();
const Phaser = await loadPhaser(pathToFileURL(`${process.argv[2]}/dist/phaser.esm.js`).href);
console.log(
  JSON.stringify({
    ...(await runPhaserScene(Phaser, usePhaserArcade, createGame)),
    resolved: import.meta.resolve('sweep-prune/phaser'),
  }),
);
process.exit(0); // Phaser's destroyed games leave timers behind
