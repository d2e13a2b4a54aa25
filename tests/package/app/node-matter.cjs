// sweep-prune/matter from CommonJS; argv[2] is where matter-js is (the consumer does not install it).
const { init } = require('sweep-prune');
const { SweepPruneDetector } = require('sweep-prune/matter');
const { runMatterScene } = require('./matter-scene.cjs');

void init().then(() => {
  const Matter = require(process.argv[2]);
  console.log(
    JSON.stringify({ ...runMatterScene(Matter, SweepPruneDetector), resolved: require.resolve('sweep-prune/matter') }),
  );
});
