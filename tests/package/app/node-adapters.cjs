// sweep-prune/p2 and sweep-prune/cannon through require(): the CommonJS copies, sharing require('sweep-prune')'s init.
const { init } = require('sweep-prune');
const { SweepPruneBroadphase: P2Broadphase } = require('sweep-prune/p2');
const { SweepPruneBroadphase: CannonBroadphase } = require('sweep-prune/cannon');
const p2 = require('p2-es');
const CANNON = require('cannon-es');

let before = '';
try {
  new P2Broadphase();
} catch (e) {
  before = e.code;
}
void init().then(() => {
  const p2World = new p2.World({ broadphase: new P2Broadphase() });
  for (let k = 0; k < 10; k++) {
    const b = new p2.Body({ mass: 1, position: [k * 0.5, 0] });
    b.addShape(new p2.Circle({ radius: 0.5 }));
    p2World.addBody(b);
  }
  const sap = new p2.SAPBroadphase(); // p2's own, on the same bodies before the step
  sap.setWorld(p2World);
  const sapPairs = sap.getCollisionPairs(p2World).length / 2;
  let p2Pairs = 0;
  p2World.on('postBroadphase', (e) => (p2Pairs = e.pairs.length / 2));
  p2World.step(1 / 60);
  const cannonWorld = new CANNON.World({ broadphase: new CannonBroadphase() });
  for (let k = 0; k < 10; k++)
    cannonWorld.addBody(
      new CANNON.Body({ mass: 1, shape: new CANNON.Sphere(0.5), position: new CANNON.Vec3(k * 0.5, 0, 0) }),
    );
  cannonWorld.step(1 / 60);
  console.log(
    JSON.stringify({
      before,
      p2Pairs,
      sapPairs,
      cannonContacts: cannonWorld.contacts.length,
      resolved: require.resolve('sweep-prune/p2'),
    }),
  );
  p2World.broadphase.dispose();
  cannonWorld.broadphase.dispose();
});
