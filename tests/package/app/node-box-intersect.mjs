// sweep-prune/box-intersect from an ES module: the default export, init from the same entry and from the root.
import boxIntersect, { init } from 'sweep-prune/box-intersect';
import { isInitialized } from 'sweep-prune';

let notInitialized = false;
try {
  boxIntersect([[0, 0, 1, 1]]);
} catch (error) {
  notInitialized = error.code === 'NotInitialized';
}
await init();
const boxes = [
  [1, 1, 2, 2],
  [0, -1, 3, 2],
  [2, 1, 4, 5],
  [0.5, 3, 1, 10],
];
console.log(
  JSON.stringify({
    notInitialized,
    shared: isInitialized(),
    pairs: boxIntersect(boxes).sort((a, b) => a[0] - b[0] || a[1] - b[1]),
    early: boxIntersect(boxes, (i, j) => (j === 2 ? 2 : undefined)),
  }),
);
