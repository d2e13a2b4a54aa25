// sweep-prune/planck from CommonJS; argv[2] is where planck is (the consumer does not install it).
const { init } = require('sweep-prune');
const { stopSweepPrune, useSweepPrune } = require('sweep-prune/planck');
const { runPlanckScene } = require('./planck-scene.cjs');

void init().then(() => {
  const planck = require(process.argv[2]);
  console.log(
    JSON.stringify({
      ...runPlanckScene(planck, useSweepPrune, stopSweepPrune),
      resolved: require.resolve('sweep-prune/planck'),
    }),
  );
});
