// A CommonJS consumer: resolves the "require" condition (dist/cjs).
import sp = require('sweep-prune');

export async function count(): Promise<number> {
  await sp.init();
  const world: sp.World = new sp.World({ dimensions: 1 });
  world.addBox([0], [1]);
  world.addBox([1], [2]); // touching: a pair
  world.update();
  const n: number = world.pairCount;
  world.dispose();
  const pj: sp.PruneJuice<number> = new sp.default<number>([{ getStart: (x) => x, getEnd: (x) => x + 1 }]);
  pj.dispose();
  return n;
}
