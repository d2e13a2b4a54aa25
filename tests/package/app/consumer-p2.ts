// sweep-prune/p2's types as a TypeScript user sees them (a program of its own: p2-es and cannon-es declare the same
// global module names, so one program cannot hold both engines).
import { init, SweepPruneError } from 'sweep-prune';
import { SweepPruneBroadphase } from 'sweep-prune/p2';
import { Body, Broadphase, World } from 'p2-es';

await init();
const broadphase = new SweepPruneBroadphase();
const world = new World({ broadphase });
const asBase: Broadphase = broadphase;
const pairs: Body[] = broadphase.getCollisionPairs(world);
const disposed: boolean = broadphase.disposed;
// @ts-expect-error the constructor takes no world (p2's World attaches it)
new SweepPruneBroadphase(world);
broadphase.dispose();
void [asBase, pairs, disposed, SweepPruneError];
