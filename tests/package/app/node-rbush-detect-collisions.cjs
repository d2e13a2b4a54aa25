// The README's switch for detect-collisions users in Node: its bundled rbush (which its System extends) replaced by
// sweep-prune/rbush before detect-collisions is first required. argv[2]: where detect-collisions is installed.
const { dirname, join } = require('node:path');

const main = require.resolve(process.argv[2]);
require.cache[join(dirname(main), 'external', 'rbush.js')] = { exports: require('sweep-prune/rbush'), loaded: true };

const { System } = require(main);
const RBush = require('sweep-prune/rbush');

void RBush.init().then(() => {
  const system = new System();
  const a = system.createBox({ x: 0, y: 0 }, 10, 10);
  system.createCircle({ x: 12, y: 5 }, 4);
  system.createCircle({ x: 50, y: 50 }, 4);
  let collisions = 0;
  system.checkAll(() => {
    collisions++;
  });
  a.setPosition(100, 100);
  system.update();
  let after = 0;
  system.checkAll(() => {
    after++;
  });
  console.log(JSON.stringify({ extends: system instanceof RBush, collisions, after, bodies: system.all().length }));
});
