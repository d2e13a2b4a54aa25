// sweep-prune/phaser from CommonJS; argv[2] is where phaser is (the consumer does not install it), argv[3] the repo's
// headless runner (web/scripts/phaser-headless.mjs).
const { pathToFileURL } = require('node:url');
const { init } = require('sweep-prune');
const { usePhaserArcade } = require('sweep-prune/phaser');
const { runPhaserScene } = require('./phaser-scene.cjs');

void (async () => {
  const { createGame, installDom } = await import(pathToFileURL(process.argv[3]).href);
  await init();
  installDom();
  const Phaser = require(`${process.argv[2]}/dist/phaser.js`); // its "require" entry
  const result = await runPhaserScene(Phaser, usePhaserArcade, createGame);
  console.log(JSON.stringify({ ...result, resolved: require.resolve('sweep-prune/phaser') }));
  process.exit(0); // Phaser's destroyed games leave timers behind
})();
