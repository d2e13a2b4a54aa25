// require('sweep-prune/box-intersect'): the function, with init beside it.
import boxIntersect = require('sweep-prune/box-intersect');

export async function count(): Promise<number> {
  await boxIntersect.init();
  const pairs: [number, number][] = boxIntersect([
    [0, 1],
    [1, 2],
  ]);
  return pairs.length;
}
