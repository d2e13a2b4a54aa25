// sweep-prune/rbush from an ES module: the default export, NotInitialized before init(), one engine with the root.
import RBush, { init } from 'sweep-prune/rbush';
import { isInitialized } from 'sweep-prune';

let notInitialized = false;
try {
  new RBush();
} catch (error) {
  notInitialized = error.code === 'NotInitialized';
}
await init();
const tree = new RBush().load([
  { minX: 0, minY: 0, maxX: 1, maxY: 1 },
  { minX: 1, minY: 1, maxX: 2, maxY: 2 },
  { minX: 5, minY: 5, maxX: 6, maxY: 6 },
]);
const found = tree.search({ minX: 1, minY: 1, maxX: 1, maxY: 1 }).length;
const moved = tree.all()[2];
Object.assign(moved, { minX: 2, minY: 2, maxX: 3, maxY: 3 });
tree.update(moved);
console.log(
  JSON.stringify({
    notInitialized,
    shared: isInitialized(),
    found,
    pairs: tree.pairs().length,
    collides: tree.collides({ minX: 10, minY: 10, maxX: 11, maxY: 11 }),
  }),
);
