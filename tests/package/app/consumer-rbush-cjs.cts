// require('sweep-prune/rbush'): the class, with init beside it, usable as a type.
import RBush = require('sweep-prune/rbush');

export async function count(): Promise<number> {
  await RBush.init();
  const tree: RBush<{ minX: number; minY: number; maxX: number; maxY: number }> = new RBush();
  tree.insert({ minX: 0, minY: 0, maxX: 1, maxY: 1 });
  return tree.all().length;
}
