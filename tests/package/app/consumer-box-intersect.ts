// sweep-prune/box-intersect's types, as an ES module consumer sees them.
import boxIntersect, { init, type Box } from 'sweep-prune/box-intersect';

export async function pairs(boxes: Box[]): Promise<number> {
  await init();
  const all: [number, number][] = boxIntersect(boxes);
  const first: string | undefined = boxIntersect(boxes, boxes, (i, j) => `${i},${j}`);
  // @ts-expect-error visit must be a function
  boxIntersect(boxes, boxes, 5);
  return all.length + (first === undefined ? 0 : 1);
}
