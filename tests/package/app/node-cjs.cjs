const sp = require('sweep-prune');
const { runScene } = require('./scene.cjs');

void sp.init().then(() => {
  console.log(JSON.stringify({ ...runScene(sp), resolved: require.resolve('sweep-prune') }));
});
