// sweep-prune/cannon's types as a TypeScript user sees them (a program of its own, see consumer-p2.ts).
import { init } from 'sweep-prune';
import { SweepPruneBroadphase } from 'sweep-prune/cannon';
import { Body, Broadphase, World } from 'cannon-es';

await init();
const world = new World();
const broadphase = new SweepPruneBroadphase(world);
world.broadphase = broadphase;
const asBase: Broadphase = broadphase;
const p1: Body[] = [];
const p2: Body[] = [];
broadphase.collisionPairs(world, p1, p2);
// @ts-expect-error a world, not a number
new SweepPruneBroadphase(1);
broadphase.dispose();
void asBase;
