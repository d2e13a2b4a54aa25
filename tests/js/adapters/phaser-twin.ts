// Two identical Phaser games stepped side by side, one on Phaser's own Arcade Physics with `useTree: false` (the
// oracle: its colliders walk every pair, groups in their children's order) and one on sweep-prune/phaser, each
// recording what a player of the game sees: the callbacks and events of every frame, and every body's position and
// velocity after it. Nothing is sorted: the order of the callbacks is compared as Phaser makes it.
import type PhaserNs from 'phaser';
import { usePhaserArcade, type ArcadeSweepPrune } from '../../../web/src/adapters/phaser/index.js';
import { mulberry32 } from '../oracle.js';
// @ts-expect-error: a plain .mjs script without types
import { createGame, loadPhaser } from '../../../web/scripts/phaser-headless.mjs';

export type Phaser = typeof PhaserNs;
type Scene = PhaserNs.Scene;
type ArcadeWorld = PhaserNs.Physics.Arcade.World;
type ArcadeBody = PhaserNs.Physics.Arcade.Body | PhaserNs.Physics.Arcade.StaticBody;

export const load = (): Promise<Phaser> => loadPhaser() as Promise<Phaser>;

/** What a scene writes its observations to. `frame` is the frame being stepped. */
export interface Recorder {
  frame: number;
  log: string[];
  /** The game objects whose bodies are compared after each frame (named, in creation order). */
  tracked: PhaserNs.GameObjects.GameObject[];
}

/**
 * Builds a scene into an empty game (`random` is seeded: both games get the same scene) and returns what runs
 * before each step (spawning, destroying, moving by hand, queries).
 */
export type Build = (scene: Scene, recorder: Recorder, random: () => number) => (frame: number) => void;

export interface Game {
  scene: Scene;
  world: ArcadeWorld;
  recorder: Recorder;
  handle: ArcadeSweepPrune | undefined;
  tick: (frame: number) => void;
  step: (time: number, delta?: number) => void;
  game: PhaserNs.Game;
}

export async function makeGame(
  Phaser: Phaser,
  build: Build,
  physics: PhaserNs.Types.Core.PhysicsConfig,
  ours: boolean,
  seed = 1,
): Promise<Game> {
  const recorder: Recorder = { frame: 0, log: [], tracked: [] };
  const random = mulberry32(seed);
  let tick: (frame: number) => void = () => {};
  const config = ours ? physics : { ...physics, arcade: { ...physics.arcade, useTree: false } };
  const made = (await createGame(Phaser, {
    physics: config,
    width: 800,
    height: 600,
    create: (scene: Scene) => {
      tick = build(scene, recorder, random);
    },
  })) as { game: PhaserNs.Game; scene: Scene; step: (time: number, delta?: number) => void };
  const world = made.scene.physics.world;
  let handle: ArcadeSweepPrune | undefined;
  if (ours) handle = usePhaserArcade(world);
  return { ...made, world, recorder, handle, tick };
}

/** Every tracked body's position, velocity and enable flag (NaN for no body), four numbers and a flag each. */
function bodyValues(game: Game): number[] {
  const values: number[] = [];
  for (const object of game.recorder.tracked) {
    const body = (object as unknown as { body: ArcadeBody | null }).body;
    if (body == null) {
      values.push(NaN, NaN, NaN, NaN, -1);
      continue;
    }
    const v = (body as { velocity?: { x: number; y: number } }).velocity ?? { x: 0, y: 0 };
    values.push(body.position.x, body.position.y, v.x, v.y, body.enable ? 1 : 0);
  }
  return values;
}

/** The same, a string per body, for a report. */
export function bodyStates(game: Game): string[] {
  const values = bodyValues(game);
  return game.recorder.tracked.map((o, i) => `${o.name}: ${values.slice(5 * i, 5 * i + 5).join(' ')}`);
}

/** The first frame at which the two games differ, with what differs, or undefined if they never do. */
export interface Divergence {
  frame: number;
  what: string;
  oracle: string[];
  ours: string[];
}

/**
 * Step both games `frames` times; after each frame compare the frame's log and every tracked body. Returns the
 * number of log entries seen and the first divergence, if any.
 */
export function runTwins(oracle: Game, ours: Game, frames: number): { events: number; divergence?: Divergence } {
  let events = 0;
  for (let frame = 0; frame < frames; frame++) {
    for (const game of [oracle, ours]) {
      game.recorder.frame = frame;
      game.recorder.log.length = 0;
      game.tick(frame);
      game.step(frame * (1000 / 60), 1000 / 60);
    }
    const a = oracle.recorder.log;
    const b = ours.recorder.log;
    if (a.join('\n') !== b.join('\n')) return { events, divergence: firstDifference(frame, 'log', a, b) };
    events += a.length;
    const va = bodyValues(oracle);
    const vb = bodyValues(ours);
    if (va.length !== vb.length || va.some((v, i) => !Object.is(v, vb[i]))) {
      return { events, divergence: firstDifference(frame, 'bodies', bodyStates(oracle), bodyStates(ours)) };
    }
  }
  return { events };
}

function firstDifference(frame: number, what: string, a: string[], b: string[]): Divergence {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return { frame, what: `${what} from entry ${i}`, oracle: a.slice(i, i + 5), ours: b.slice(i, i + 5) };
}

export function destroyGames(...games: (Game | undefined)[]): void {
  for (const game of games) {
    if (game === undefined) continue;
    game.game.destroy(true);
    game.step(0, 0); // the stopped loop's next step runs the destruction (scenes shut down, worlds destroyed)
  }
}
