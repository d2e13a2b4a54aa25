// A small matter-js scene stepped twice, with matter's own detector and with sweep-prune/matter: the collisions of
// every step, as sorted part-id pairs, must be the same (the solver's order is made canonical first, as matter's own
// test worker does). Shared by node-matter.mjs and node-matter.cjs; `Matter` is passed in.
function runMatterScene(Matter, SweepPruneDetector) {
  const { Bodies, Collision, Composite, Composites, Engine, Pairs } = Matter;
  const collides = Collision.collides;
  const update = Pairs.update;
  const byIds = (a, b) => a.bodyA.id - b.bodyA.id || a.bodyB.id - b.bodyB.id;
  Collision.collides = (a, b, pairs) => (a.id < b.id ? collides(a, b, pairs) : collides(b, a, pairs));
  Pairs.update = (pairs, collisions, timestamp) => {
    collisions.sort(byIds);
    pairs.list.sort((a, b) => byIds(a.collision, b.collision));
    update(pairs, collisions, timestamp);
    pairs.list.sort((a, b) => byIds(a.collision, b.collision));
  };
  const detector = new SweepPruneDetector(Matter);
  const engines = [Engine.create({ enableSleeping: true }), Engine.create({ enableSleeping: true, detector })];
  const keys = [];
  for (const engine of engines) {
    Composite.add(engine.world, Bodies.rectangle(400, 600, 800, 50, { isStatic: true }));
    Composite.add(
      engine.world,
      Composites.stack(200, 300, 10, 5, 0, 0, (x, y) => Bodies.rectangle(x, y, 30, 30)),
    );
    const ids = Composite.allBodies(engine.world)
      .map((b) => b.id)
      .sort((a, b) => a - b);
    const rank = (id) => ids.indexOf(id);
    const steps = [];
    for (let s = 0; s < 120; s++) {
      Engine.update(engine, 1000 / 60);
      steps.push(
        engine.detector.collisions
          .map((c) => `${rank(c.bodyA.id)}:${rank(c.bodyB.id)}`)
          .sort()
          .join(' '),
      );
    }
    keys.push(steps);
  }
  Collision.collides = collides;
  Pairs.update = update;
  const collisions = keys[1].reduce((n, s) => n + (s ? s.split(' ').length : 0), 0);
  const same = JSON.stringify(keys[0]) === JSON.stringify(keys[1]);
  const region = detector.region({ min: { x: 0, y: 0 }, max: { x: 800, y: 600 } }).length;
  detector.dispose();
  return { collisions, same, region, disposed: detector.disposed };
}
module.exports = { runMatterScene };
