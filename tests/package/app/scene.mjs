// A seeded scene run through both APIs of whichever entry is passed in, checked against brute force.
// Shared by the Node scripts (ESM, and CommonJS via a generated scene.cjs) and the browser page.
export function runScene(sp) {
  let seed = 20240607;
  const random = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // quarter-unit coordinates: exact in float32, and many boxes touch (closed intervals: touching is a pair)
  const quarter = (x) => Math.round(x * 4) / 4;
  const dimensions = 2;
  const boxes = [];
  for (let i = 0; i < 400; i++) {
    const min = [quarter(random() * 100), quarter(random() * 100)];
    boxes.push({ min, max: min.map((m) => m + quarter(random() * 8)) });
  }
  const key = (i, j) => (i < j ? `${i},${j}` : `${j},${i}`);
  const bruteForce = () => {
    const out = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        let overlap = true;
        for (let a = 0; a < dimensions; a++) {
          if (boxes[i].min[a] > boxes[j].max[a] || boxes[j].min[a] > boxes[i].max[a]) overlap = false;
        }
        if (overlap) out.push(key(i, j));
      }
    }
    return out.sort();
  };
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  const minus = (a, b) => a.filter((x) => !b.includes(x));

  const world = new sp.World({ dimensions });
  const ids = boxes.map((b) => world.addBox(b.min, b.max));
  const indexOf = new Map(ids.map((id, i) => [id, i]));
  const read = (view) => {
    const out = [];
    for (let k = 0; k < view.length; k += 2) out.push(key(indexOf.get(view[k]), indexOf.get(view[k + 1])));
    return out.sort();
  };
  world.update();
  const first = bruteForce();
  const worldOk = same(read(world.pairs), first) && world.pairCount === first.length;

  // move every box through the bounds view, no call per box
  const bounds = world.bounds;
  boxes.forEach((b, i) => {
    const dx = quarter(random() * 6 - 3);
    b.min[0] += dx;
    b.max[0] += dx;
    const o = world.offsetOf(ids[i]);
    bounds[o] = b.min[0];
    bounds[o + dimensions] = b.max[0];
  });
  world.update();
  const second = bruteForce();
  const movedOk = same(read(world.pairs), second);
  const eventsOk = same(read(world.began), minus(second, first)) && same(read(world.ended), minus(first, second));

  let errorCode = 'none';
  try {
    world.addBox([Number.NaN, 0], [1, 1]);
  } catch (error) {
    errorCode = error instanceof sp.SweepPruneError ? error.code : String(error);
  }
  world.dispose();

  const pj = new sp.PruneJuice([
    { getStart: (b) => b.min[0], getEnd: (b) => b.max[0] },
    { getStart: (b) => b.min[1], getEnd: (b) => b.max[1] },
  ]);
  boxes.forEach((b) => pj.register(b));
  const boxIndex = new Map(boxes.map((b, i) => [b, i]));
  const candidates = pj.getCollisionCandidates().map(([a, b]) => key(boxIndex.get(a), boxIndex.get(b)));
  const pruneJuiceOk = same(candidates.sort(), second);
  pj.dispose();

  return {
    pairs: second.length,
    world: worldOk,
    moved: movedOk,
    events: eventsOk,
    pruneJuice: pruneJuiceOk,
    errorCode,
    initialized: sp.isInitialized(),
    defaultExport: sp.default === sp.PruneJuice,
  };
}
