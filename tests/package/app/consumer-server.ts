// Type-checked as a server or CLI project is set up: lib ES2022 only, with @types/node and without any types at
// all, no DOM (tests/package/package.test.ts writes the two tsconfigs). Nothing here may need a browser type.
import { init, PruneJuice, SweepPruneError, World, type BoxId, type WasmSource } from 'sweep-prune';

export async function run(bytes: Uint8Array): Promise<number> {
  const source: WasmSource = bytes;
  await init(source);
  const world = new World<{ name: string }>({ dimensions: 3 });
  const a: BoxId = world.addBox([0, 0, 0], [1, 1, 1], { name: 'a' });
  world.addBox([0.5, 0.5, 0.5], [2, 2, 2], { name: 'b' });
  world.update();
  let names = '';
  world.forEachBegan((x, y, dx, dy) => {
    names += `${x}:${dx?.name} ${y}:${dy?.name}`;
  });
  const hits: Uint32Array = world.castRay([-1, 0.5, 0.5], [1, 0, 0]).ids;
  try {
    world.removeBox(a + 1);
  } catch (e) {
    if (!(e instanceof SweepPruneError)) throw e;
  }
  world.dispose();
  const pj = new PruneJuice<{ x: number }>([{ getStart: (t) => t.x, getEnd: (t) => t.x + 1 }]);
  pj.register({ x: 0 });
  return names.length + hits.length + pj.getCollisionCandidates().length;
}
