// sweep-prune/rbush's types, as an ES module consumer sees them.
import RBush, { init, type BBox } from 'sweep-prune/rbush';

interface Body extends BBox {
  name: string;
}

class System extends RBush<Body> {
  override toBBox(body: Body): BBox {
    return body;
  }
}

export async function count(): Promise<number> {
  await init();
  const system = new System(16, { events: true });
  const found: Body[] = system.search({ minX: 0, minY: 0, maxX: 1, maxY: 1 });
  const pairs: [Body, Body][] = system.pairs();
  // @ts-expect-error search takes a box
  system.search(5);
  return found.length + pairs.length + system.began().length;
}
