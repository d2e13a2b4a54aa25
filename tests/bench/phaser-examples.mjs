// npm run bench -- --only=phaser: scenes built as Phaser's own Arcade Physics examples build theirs (phaserjs/examples,
// public/src/physics/arcade), each at its own size, stepped in three identical games, one per mode: Phaser's tree
// (its default), Phaser with `useTree: false`, and sweep-prune/phaser. The games take turns in blocks of steps (the
// order of the modes turning each block, each step after a minor collection); printed: each mode's median over the
// blocks of the mean `World.update` per step, and ours against the faster of Phaser's modes. The target: never
// slower than the faster mode where it takes 0.5 ms or more a step (5% for this machine's noise), at most 0.1 ms
// more below. Every block also checks that our game's callbacks so far equal those of the `useTree: false` game.
// Each scene runs in three processes, each making the three games in another order, their blocks pooled: in one
// process, identical games measured up to 20% apart by the order in which they were made (where their objects
// landed in the heap).
// On its own: `node --expose-gc tests/bench/phaser-examples.mjs [--quick]` (after web/scripts/setup.sh).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createGame, loadPhaser } from '../../web/scripts/phaser-headless.mjs';
import { compileWrapper, importWrapper } from './compile.mjs';
import { mulberry32, timedStep } from './phaser.mjs';
import { median } from './stats.mjs';

const MODES = ['tree', 'no tree', 'sweep-prune'];

const between = (random, a, b) => a + Math.floor(random() * (b - a + 1));

/**
 * The scenes: `build(scene, random, count)` makes the example's bodies and colliders and returns what runs before
 * each step (the example's `update`), or nothing. `count(name, a, b)` records a callback and its two objects.
 */
export const scenes = {
  // "bullets group collisions" with a pool of 2 000: every pooled bullet parked at (0, 0), one enemy,
  // overlap(enemy, bullets); a bullet fired every fifth step, parked again when it leaves the top
  'bullet pool of 2 000, overlap(enemy, bullets)': {
    width: 800,
    height: 600,
    build(scene, random, count) {
      const bullets = scene.physics.add.group();
      for (let i = 0; i < 2000; i++) {
        const b = scene.add.rectangle(0, 0, 6, 18);
        b.setActive(false);
        bullets.add(b);
      }
      const enemy = scene.add.rectangle(400, 200, 180, 120);
      scene.physics.add.existing(enemy);
      scene.physics.add.overlap(enemy, bullets, (_, bullet) => {
        count('hit', enemy, bullet);
        bullet.setActive(false);
        bullet.body.reset(0, 0);
      });
      let step = 0;
      return () => {
        for (const b of bullets.getChildren()) {
          if (b.active && b.y <= -32) {
            b.setActive(false);
            b.body.reset(0, 0);
          }
        }
        if (step++ % 5 !== 0) return;
        const b = bullets.getFirst(false);
        if (!b) return;
        b.setActive(true);
        b.body.reset(200 + random() * 400, 500);
        b.body.setVelocityY(-300);
      };
    },
  },
  // "mass collision test": 10 000 bodies bouncing in an 800 x 600 world, an immovable player, collider(player, group)
  'mass collision test, 10 000 bodies, collider(player, group)': {
    width: 800,
    height: 600,
    gravityY: 100,
    build(scene, random, count) {
      const group = scene.physics.add.group();
      for (let i = 0; i < 10000; i++) {
        const block = scene.add.rectangle(10 + random() * 780, 300 + random() * 200, 17, 17);
        group.add(block);
        block.body.setBounce(1, 1).setCollideWorldBounds(true).setMaxVelocity(300);
        block.body.setVelocity(between(random, -200, 200), between(random, -200, -100));
      }
      const player = scene.add.rectangle(400, 100, 64, 64);
      scene.physics.add.existing(player);
      player.body.setImmovable(true).setCollideWorldBounds(true);
      scene.physics.add.collider(player, group, (a, b) => count('collide', a, b));
      let step = 0;
      return () => player.body.setVelocityX(step++ % 120 < 60 ? 500 : -500);
    },
  },
  // "500 colliding bodies": 500 blocks in a 6400 x 4800 world, collider(blocks, blocks) with the same array twice
  '500 colliding bodies, collider(array, array)': {
    width: 6400,
    height: 4800,
    gravityY: 100,
    build(scene, random, count) {
      const blocks = [];
      for (let i = 0; i < 500; i++) blocks.push(bouncer(scene, random, 6400, 4800));
      scene.physics.add.collider(blocks, blocks, (a, b) => count('collide', a, b));
    },
  },
  // "10000 world bodies" and "40000 world bodies": bodies bouncing in a world 32 x 32 screens large, no collider
  '10 000 world bodies, no collider': worldBodies(10000),
  '40 000 world bodies, no collider': worldBodies(40000),
  // "group vs group": 24 balls and 24 crates, collider(balls, crates)
  'group vs group, 24 and 24': {
    width: 800,
    height: 600,
    build(scene, random, count) {
      const make = (vx, vy) => {
        const group = scene.physics.add.group({ bounceX: 1, bounceY: 1, collideWorldBounds: true });
        for (let i = 0; i < 24; i++) {
          const r = scene.add.rectangle(random() * 800, random() * 600, 32, 32);
          group.add(r);
          r.body.setVelocity(vx, vy).setBounce(1, 1).setCollideWorldBounds(true);
        }
        return group;
      };
      const balls = make(300, 150);
      const crates = make(-150, -300);
      scene.physics.add.collider(balls, crates, (a, b) => count('collide', a, b));
    },
  },
  // "group vs self": 100 bodies of one group colliding with each other
  'group vs self, 100, collider(group)': {
    width: 800,
    height: 600,
    build(scene, random, count) {
      const group = scene.physics.add.group();
      for (let i = 0; i < 100; i++) {
        const r = scene.add.rectangle(random() * 800, random() * 600, 32, 32);
        group.add(r);
        r.body.setVelocity(between(random, -200, 200), between(random, -200, 200));
        r.body.setBounce(1, 1).setCollideWorldBounds(true);
      }
      scene.physics.add.collider(group, undefined, (a, b) => count('collide', a, b));
    },
  },
};

// a 32 x 32 block somewhere in a width x height world (100 px from its edges), bouncing at 200 to 400 px/s on both
// axes, one of them reversed: the blocks of the examples "500 colliding bodies" and "10000 world bodies"
function bouncer(scene, random, width, height) {
  const block = scene.add.rectangle(100 + random() * (width - 200), 100 + random() * (height - 200), 32, 32);
  scene.physics.add.existing(block);
  block.body.setVelocity(between(random, 200, 400), between(random, 200, 400));
  block.body.setBounce(1, 1).setCollideWorldBounds(true);
  if (random() > 0.5) block.body.velocity.x *= -1;
  else block.body.velocity.y *= -1;
  return block;
}

function worldBodies(n) {
  return {
    width: 800 * 32,
    height: 600 * 32,
    gravityY: 100,
    build(scene, random) {
      for (let i = 0; i < n; i++) bouncer(scene, random, 800 * 32, 600 * 32);
    },
  };
}

async function makeGame(Phaser, spec, mode, usePhaserArcade) {
  const calls = [];
  let tick;
  const { game, scene } = await createGame(Phaser, {
    width: spec.width > 800 ? 800 : spec.width,
    height: spec.height > 600 ? 600 : spec.height,
    physics: { default: 'arcade', arcade: { useTree: mode === 'tree', gravity: { x: 0, y: spec.gravityY ?? 0 } } },
    create: (s) => {
      s.physics.world.setBounds(0, 0, spec.width, spec.height);
      tick = spec.build(s, mulberry32(7), (what) => calls.push(what));
    },
  });
  const world = scene.physics.world;
  const handle = mode === 'sweep-prune' ? usePhaserArcade(world) : undefined;
  return { mode, game, world, handle, calls, step: timedStep(world, () => tick?.()), blocks: [] };
}

const warmMs = (quick) => (quick ? 150 : 400);
const blockMs = (quick) => (quick ? 10 : 25);
const blockCount = (quick) => (quick ? 3 : 6); // per child: three children a scene

/**
 * Every scene, each in a child process, with the compiled wrapper of tests/bench/compile.mjs. One row per scene:
 * each mode's median block mean (ms per step), and ours against the faster of Phaser's.
 */
export async function benchPhaserExamples({ quick = false, log = console.log } = {}) {
  const Phaser = await loadPhaser();
  log(
    `\n## Phaser ${Phaser.VERSION} Arcade Physics, scenes built as its official examples at their own sizes: ` +
      `World.update per step (ms, median of ${3 * blockCount(quick)} interleaved blocks of about ${blockMs(quick)} ` +
      `ms, after ${warmMs(quick)} ms of warm-up per game; each scene in three processes, each making the games in ` +
      'another order)',
  );
  log('  scene                                                        tree   no tree  sweep-prune  vs faster  target');
  const only = process.env.PHASER_SCENE; // e.g. PHASER_SCENE=pool: the scenes whose name has it
  const rows = [];
  for (const name of Object.keys(scenes).filter((k) => !only || k.includes(only))) {
    // one child per order in which the games are made (each mode first once): the blocks of all, pooled
    const blocks = { tree: [], 'no tree': [], 'sweep-prune': [] };
    let calls = 0;
    for (let first = 0; first < MODES.length; first++) {
      const child = spawnSync(
        process.execPath,
        [
          '--expose-gc',
          fileURLToPath(import.meta.url),
          '--scene',
          name,
          '--first',
          String(first),
          ...(quick ? ['--quick'] : []),
        ],
        { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 },
      );
      if (child.status !== 0) throw new Error(`phaser examples: the scene "${name}" failed (exit ${child.status})`);
      const result = JSON.parse(child.stdout);
      for (const mode of MODES) blocks[mode].push(...result.blocks[mode]);
      calls = result.calls;
    }
    const ms = Object.fromEntries(MODES.map((m) => [m, median(blocks[m])]));
    const faster = Math.min(ms.tree, ms['no tree']);
    const x = faster / ms['sweep-prune'];
    const met = faster >= 0.5 ? x >= 0.95 : ms['sweep-prune'] - faster <= 0.1;
    const row = { scene: name, ms, faster, x, met, calls };
    rows.push(row);
    const cell = (m, w) => row.ms[m].toFixed(3).padStart(w);
    log(
      `  ${name.padEnd(58)} ${cell('tree', 7)} ${cell('no tree', 9)} ${cell('sweep-prune', 12)}  ` +
        `${`x${row.x.toFixed(2)}`.padStart(9)}  ${row.met ? 'met' : 'MISSED'} ` +
        `${row.faster >= 0.5 ? '>= 0.95x' : '<= +0.1 ms'}`,
    );
  }
  return rows;
}

/** One scene, in this process, its games made from mode `first` on: each mode's block means. */
async function runScene(name, quick, first) {
  const spec = scenes[name];
  if (!spec) throw new Error(`phaser examples: no scene "${name}"; the scenes: ${Object.keys(scenes).join(', ')}`);
  const Phaser = await loadPhaser();
  const sp = await importWrapper('index.js');
  await sp.init();
  const { usePhaserArcade } = await importWrapper('adapters/phaser/index.js');
  // warm-up: until each game has stepped WARM_MS (small scenes: hundreds of steps, for the optimising compiler);
  // blocks: steps enough for BLOCK_MS of the slowest game
  const WARM_MS = warmMs(quick);
  const BLOCK_MS = blockMs(quick);
  const blocks = blockCount(quick);
  const games = [];
  for (let i = 0; i < MODES.length; i++) {
    games.push(await makeGame(Phaser, spec, MODES[(first + i) % MODES.length], usePhaserArcade));
  }
  const noTree = games.find((g) => g.mode === 'no tree');
  const ours = games.find((g) => g.mode === 'sweep-prune');
  // the games step in lockstep (the same steps, so that their callbacks compare)
  const spent = games.map(() => 0);
  let steps = 0;
  while (Math.min(...spent) < WARM_MS && steps < 2000) {
    games.forEach((g, i) => (spent[i] += g.step()));
    steps++;
  }
  const slowest = Math.max(...spent) / steps;
  const perBlock = Math.max(2, Math.ceil(BLOCK_MS / slowest));
  for (let b = 0; b < blocks; b++) {
    const order = games.map((_, i) => games[(i + b) % games.length]);
    for (const g of order) {
      let total = 0;
      for (let s = 0; s < perBlock; s++) total += g.step();
      g.blocks.push(total / perBlock);
    }
    // ours must have made exactly the useTree: false game's callbacks (both stepped as often)
    if (ours.calls.join() !== noTree.calls.join()) {
      throw new Error(`phaser examples: "${name}": the callbacks differ from Phaser's useTree: false game`);
    }
  }
  for (const g of games) {
    g.handle?.stop();
    g.game.destroy(true);
    g.game.headlessStep(0, 0);
  }
  return { blocks: Object.fromEntries(games.map((g) => [g.mode, g.blocks])), calls: noTree.calls.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const at = process.argv.indexOf('--scene');
  if (at < 0) {
    compileWrapper(['index.ts', 'adapters/phaser/index.ts']);
    await benchPhaserExamples({ quick });
  } else {
    const first = Number(process.argv[process.argv.indexOf('--first') + 1] ?? 0);
    process.stdout.write(JSON.stringify(await runScene(process.argv[at + 1], quick, first)));
  }
  process.exit(0); // Phaser's destroyed games leave timers behind
}
