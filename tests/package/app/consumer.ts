// Type-checked against the installed package: tsc with NodeNext resolution, strict, skipLibCheck off, and only the
// ES2022 and DOM libs (no esnext.disposable, no @types/node).
import PruneJuiceDefault, {
  init,
  isInitialized,
  slotOf,
  PruneJuice,
  SweepPruneError,
  World,
  type BoxId,
  type Counters,
  type DimensionExtractor,
  type Endpoints,
  type ErrorCode,
  type SortFunction,
  type WasmSource,
  type WorldOptions,
} from 'sweep-prune';
import * as separate from 'sweep-prune/wasm';
import * as threaded from 'sweep-prune/threads';
import { SweepPruneDetector, useSweepPrune, type MatterBodyLike, type MatterModule } from 'sweep-prune/matter';
import * as planckAdapter from 'sweep-prune/planck';

// sweep-prune/matter's types resolve without matter-js or its @types installed
export function matterDetector<B extends MatterBodyLike, P, C>(
  Matter: MatterModule<B, P, C>,
): SweepPruneDetector<B, P, C> {
  const detector = new SweepPruneDetector(Matter);
  const bodies: B[] = detector.region({ min: { x: 0, y: 0 }, max: { x: 1, y: 1 } });
  const hits: C[] = detector.ray({ x: 0, y: 0 }, { x: 1, y: 1 });
  console.log(bodies.length + hits.length, typeof useSweepPrune);
  return detector;
}

// sweep-prune/planck's types resolve without planck installed; any planck World fits PlanckWorldLike
export function planckBroadPhase(world: planckAdapter.PlanckWorldLike): number {
  const bp: planckAdapter.SweepPruneBroadPhase = planckAdapter.useSweepPrune(world);
  const count: number = bp.getProxyCount();
  // @ts-expect-error: the constructor is private (useSweepPrune makes the broadphase)
  new planckAdapter.SweepPruneBroadPhase();
  const back: planckAdapter.PlanckBroadPhaseLike = planckAdapter.stopSweepPrune(world);
  return count + (back.testOverlap(1, 2) ? 1 : 0);
}

interface Sprite {
  x: number;
  y: number;
  w: number;
  h: number;
}

export async function run(source?: WasmSource): Promise<number> {
  await init(source);
  await separate.init(new URL('https://example.com/sweep_prune.wasm'));
  const ready: boolean = isInitialized() && separate.isInitialized();

  const options: WorldOptions = { dimensions: 2, capacity: 16 };
  const world: World = new World(options);
  const a: BoxId = world.addBox([0, 0], [2, 2]);
  const b: BoxId = world.addBox(new Float32Array([1, 1]), [3, 3]);
  world.update();
  const pairs: Uint32Array = world.pairs;
  const began: Uint32Array = world.began;
  const bounds: Float32Array = world.bounds;
  bounds[world.offsetOf(b)] = 10;
  world.update();
  const counters: Counters = world.counters;
  const endpoints: Endpoints = world.endpoints(0);
  world.forEachPair((p: BoxId, q: BoxId) => p + q);
  const box: { min: number[]; max: number[] } = world.getBox(a);
  world.setBox(a, box.min, box.max);
  world.removeBox(b);
  const slot: number = slotOf(a);
  try {
    world.addBox([Number.NaN, 0], [1, 1]);
  } catch (error) {
    if (error instanceof SweepPruneError) {
      const code: ErrorCode = error.code;
      const id: number | undefined = error.boxId;
      console.log(code, id);
    }
  }
  // @ts-expect-error: bounds are numbers
  world.addBox(['0', '0'], [1, 1]);
  world.dispose();
  const scoped = new separate.World({ dimensions: 3 });
  scoped.addBox([0, 0, 0], [1, 1, 1]);
  scoped[Symbol.dispose]();

  const extractors: DimensionExtractor<Sprite>[] = [
    { getStart: (s) => s.x, getEnd: (s) => s.x + s.w },
    { getStart: (s) => s.y, getEnd: (s) => s.y + s.h },
  ];
  const sort: SortFunction = (arr, cmp) => arr.sort(cmp);
  const pj = new PruneJuice<Sprite>(extractors, sort);
  pj.register({ x: 0, y: 0, w: 1, h: 1 });
  const candidates: Sprite[][] = pj.getCollisionCandidates();
  // @ts-expect-error: register takes a Sprite
  pj.register(42);
  pj.unregister(candidates[0]![0]!);
  const size: number = pj.size;
  pj.dispose();
  const other = new PruneJuiceDefault<Sprite>(extractors);
  other.dispose();
  const viaWasmEntry = new separate.PruneJuice<Sprite>(extractors);
  viaWasmEntry.dispose();

  return (
    pairs.length +
    began.length +
    counters.pairs +
    endpoints.values.length +
    endpoints.refs.length +
    slot +
    size +
    Number(ready)
  );
}

// sweep-prune/threads: the same World, with the threads option and its own init
export async function threadedWorld(): Promise<number> {
  const options: threaded.ThreadsInitOptions = { threaded: new URL('https://example.com/t.wasm') };
  await threaded.init(options);
  const reason: string | undefined = threaded.threadsUnavailableReason();
  const world: threaded.World = new threaded.World({ dimensions: 2, threads: 4 });
  const n: number = world.threads;
  // @ts-expect-error: threads is read-only
  world.threads = 2;
  world.dispose();
  return n + (threaded.isThreaded() ? 1 : 0) + (reason ?? '').length;
}
