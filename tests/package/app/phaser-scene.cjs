// A small Phaser game stepped twice, on Phaser's own Arcade Physics with `useTree: false` and on sweep-prune/phaser:
// two groups overlapping and a group colliding with itself; the callbacks of every frame, in order, and the bodies
// after each frame must be the same. Shared by node-phaser.mjs and node-phaser.cjs;
// `Phaser`, `usePhaserArcade` and the headless runner's `createGame` are passed in.
async function runPhaserScene(Phaser, usePhaserArcade, createGame) {
  const games = [];
  for (const ours of [false, true]) {
    const log = [];
    let seed = 5;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    const made = await createGame(Phaser, {
      physics: { default: 'arcade', arcade: { useTree: ours } },
      create: (scene) => {
        scene.physics.world.setBounds(0, 0, 800, 600);
        const swarm = scene.physics.add.group();
        const pickups = scene.physics.add.group();
        for (let i = 0; i < 300; i++) {
          const r = scene.add.rectangle(random() * 800, random() * 600, 10, 10);
          r.name = `s${i}`;
          swarm.add(r);
          r.body.setVelocity((random() - 0.5) * 200, (random() - 0.5) * 200).setCollideWorldBounds(true, 1, 1);
        }
        for (let i = 0; i < 60; i++) {
          const p = scene.add.rectangle(random() * 800, random() * 600, 16, 16);
          p.name = `p${i}`;
          pickups.add(p);
        }
        scene.physics.add.collider(swarm, undefined, (a, b) => log.push(`collide ${a.name} ${b.name}`));
        scene.physics.add.overlap(swarm, pickups, (a, b) => log.push(`overlap ${a.name} ${b.name}`));
      },
    });
    const world = made.scene.physics.world;
    games.push({ ...made, log, world, handle: ours ? usePhaserArcade(world) : undefined });
  }
  let same = true;
  let events = 0;
  for (let frame = 0; frame < 60; frame++) {
    const frames = games.map((g) => {
      g.log.length = 0;
      g.step(frame * (1000 / 60));
      const bodies = [...g.world.bodies].map((b) => `${b.gameObject.name} ${b.x} ${b.y}`).join(';');
      return `${g.log.join(';')}|${bodies}`;
    });
    same &&= frames[0] === frames[1];
    events += games[0].log.length;
  }
  const handle = games[1].handle;
  for (const g of games) {
    g.game.destroy(true);
    g.step(0, 0);
  }
  return { same, events, stopped: handle.stopped };
}

module.exports = { runPhaserScene };
