// A small planck scene stepped in two worlds, one on planck's own broadphase and one on sweep-prune/planck, each
// handing its new pairs to createContact sorted by proxy id: the bodies must end bit-identical. Shared by
// node-planck.mjs and node-planck.cjs; `planck` and the adapter's functions are passed in. `canonical` is also the
// order tests/js/adapters/planck.test.ts imposes on its twin worlds.
/**
 * Hand createContact each updatePairs' new pairs (lower proxy id first) sorted by higher id, then lower id, both
 * descending, each once: the order sweep-prune/planck uses, so two worlds step alike.
 */
function canonical(world) {
  const bp = world.m_broadPhase;
  const updatePairs = bp.updatePairs.bind(bp);
  bp.updatePairs = (callback) => {
    const pairs = [];
    updatePairs((a, b) => pairs.push(a.proxyId < b.proxyId ? [a, b] : [b, a]));
    pairs.sort((x, y) => y[1].proxyId - x[1].proxyId || y[0].proxyId - x[0].proxyId);
    pairs.forEach((p, i) => {
      if (i === 0 || pairs[i - 1][0] !== p[0] || pairs[i - 1][1] !== p[1]) callback(p[0], p[1]);
    });
  };
}

function runPlanckScene(planck, useSweepPrune, stopSweepPrune) {
  const { World, Vec2, Box, Edge } = planck;
  const worlds = [new World({ gravity: new Vec2(0, -10) }), new World({ gravity: new Vec2(0, -10) })];
  const ours = useSweepPrune(worlds[1]);
  const states = [];
  let contacts = 0;
  for (const world of worlds) {
    canonical(world);
    world.createBody().createFixture(new Edge(new Vec2(-40, 0), new Vec2(40, 0)), 0);
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j <= i; j++) {
        world
          .createBody({ type: 'dynamic', position: new Vec2(j * 1.1 - i * 0.55, 20.5 - i) })
          .createFixture(new Box(0.5, 0.5), 5);
      }
    }
    for (let s = 0; s < 120; s++) world.step(1 / 60);
    contacts = world.getContactCount();
    const state = [];
    for (let b = world.getBodyList(); b; b = b.getNext())
      state.push(b.getPosition().x, b.getPosition().y, b.getAngle());
    states.push(state.join(','));
  }
  let found = 0;
  worlds[1].queryAABB({ lowerBound: new Vec2(-40, -1), upperBound: new Vec2(40, 30) }, () => ++found > 0);
  stopSweepPrune(worlds[1]);
  return { same: states[0] === states[1], contacts, found, disposed: ours.disposed };
}
module.exports = { runPlanckScene, canonical };
