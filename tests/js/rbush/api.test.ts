// sweep-prune/rbush beyond rbush's own tests: each error (typed, and changing nothing), update(item), pairs, the
// began and ended events against brute force, toJSON/fromJSON with the real rbush both ways, a subclass as
// detect-collisions writes one, dispose, and views of wasm memory ended by a growth between calls.
import RBushReference from 'rbush';
import { beforeAll, describe, expect, test } from 'vitest';
import RBush from '../../../web/src/rbush.js';
import { init, memoryStats, SweepPruneError, World, type ErrorCode } from '../../../web/src/index.js';
import { mulberry32 } from '../oracle.js';

interface Item {
  id: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

function expectCode(fn: () => unknown, code: ErrorCode, message: RegExp): void {
  expect(fn).toThrow(SweepPruneError);
  expect(fn).toThrow(
    expect.objectContaining({ name: 'SweepPruneError', code, message: expect.stringMatching(message) }),
  );
}

const item = (id: number, minX: number, minY: number, maxX: number, maxY: number): Item => ({
  id,
  minX,
  minY,
  maxX,
  maxY,
});
const ids = (items: Item[]) => items.map((i) => i.id);
const EVERYTHING = { minX: -Infinity, minY: -Infinity, maxX: Infinity, maxY: Infinity };

describe('before init()', () => {
  test('new RBush() throws NotInitialized naming init() and sweep-prune/rbush', () => {
    expectCode(() => new RBush(), 'NotInitialized', /await init\(\)/);
  });
});

describe('after init()', () => {
  beforeAll(() => init());

  function tree(): RBush<Item> {
    return new RBush<Item>().load([item(1, 0, 0, 1, 1), item(2, 1, 1, 2, 2), item(3, 5, 5, 6, 6)]);
  }

  describe('errors: typed, and nothing changes', () => {
    test('insert of an item with a NaN bound throws InvalidBounds naming the item', () => {
      const t = tree();
      expectCode(() => t.insert(item(4, 0, NaN, 1, 1)), 'InvalidBounds', /insert: toBBox\(.*id: 4.*\)\.minY is NaN/);
      expect(ids(t.all())).toEqual([1, 2, 3]);
    });

    test('insert of an item with a bound that is not a number throws InvalidBounds', () => {
      const t = tree();
      expectCode(
        () => t.insert({ id: 4, minX: 0, minY: 0, maxX: '1', maxY: 1 } as never),
        'InvalidBounds',
        /maxX is "1"/,
      );
      expectCode(() => t.insert({ id: 5 } as never), 'InvalidBounds', /minX is undefined/);
      expect(ids(t.all())).toEqual([1, 2, 3]);
    });

    test('insert of an inverted box throws InvertedBounds', () => {
      const t = tree();
      expectCode(() => t.insert(item(4, 2, 0, 1, 1)), 'InvertedBounds', /minX \(2\) must be <= maxX \(1\)/);
      expect(t.search(EVERYTHING)).toHaveLength(3);
    });

    test('a toBBox that returns no object throws InvalidBounds', () => {
      const t = tree();
      t.toBBox = () => null as never;
      expectCode(() => t.insert(item(4, 0, 0, 1, 1)), 'InvalidBounds', /toBBox\(.*\) must return \{ minX/);
      expect(ids(t.all())).toEqual([1, 2, 3]);
    });

    test('load with a bad item throws naming its index, and adds none', () => {
      const t = tree();
      const batch = [item(4, 0, 0, 1, 1), item(5, 0, 0, 1, 1), item(6, 0, 0, 1, 1), item(7, 3, 0, 1, 1)];
      expectCode(() => t.load(batch), 'InvertedBounds', /load: data\[3\]: toBBox/);
      expectCode(() => t.load([item(4, 0, 0, 1, 1), undefined as never]), 'InvalidArgument', /data\[1\] is undefined/);
      expect(ids(t.all())).toEqual([1, 2, 3]);
      expect(ids(t.search(EVERYTHING))).toEqual([1, 2, 3]);
    });

    test('search and collides with a NaN or missing bound throw InvalidBounds', () => {
      const t = tree();
      expectCode(
        () => t.search({ minX: 0, minY: 0, maxX: NaN, maxY: 1 }),
        'InvalidBounds',
        /search: bbox\.maxX is NaN/,
      );
      expectCode(() => t.collides(null as never), 'InvalidBounds', /collides: bbox must be/);
    });

    test('remove with an equalsFn that is not a function throws InvalidArgument', () => {
      const t = tree();
      expectCode(() => t.remove(t.all()[0], 'id' as never), 'InvalidArgument', /equalsFn must be a function/);
      expect(ids(t.all())).toEqual([1, 2, 3]);
    });

    test('update of an item not in the tree throws InvalidArgument', () => {
      const t = tree();
      expectCode(
        () => t.update(item(9, 0, 0, 1, 1)),
        'InvalidArgument',
        /update: .*not in this RBush; insert it first/,
      );
    });

    test('update to a bad box throws and the item stays where it was', () => {
      const t = tree();
      const first = t.all()[0]!;
      first.maxX = NaN;
      expectCode(() => t.update(first), 'InvalidBounds', /update: .*maxX is NaN/);
      expect(ids(t.search({ minX: 0.5, minY: 0.5, maxX: 0.5, maxY: 0.5 }))).toEqual([1]);
    });

    test('bad constructor arguments throw InvalidArgument', () => {
      expectCode(() => new RBush('9' as never), 'InvalidArgument', /maxEntries must be a number/);
      expectCode(() => new RBush(9, null as never), 'InvalidArgument', /options must be an object/);
      expectCode(
        () => new RBush(9, { event: true } as never),
        'InvalidArgument',
        /unknown option "event" \(did you mean "events"\?\)/,
      );
      expectCode(() => new RBush(9, { events: 1 } as never), 'InvalidArgument', /events must be true or false/);
    });

    test('began() and ended() without events throw InvalidArgument', () => {
      const t = tree();
      expectCode(() => t.began(), 'InvalidArgument', /events: true/);
      expectCode(() => t.ended(), 'InvalidArgument', /events: true/);
    });

    test('fromJSON of a bad node or a bad item throws, and the tree keeps its items', () => {
      const t = tree();
      expectCode(() => t.fromJSON({ leaf: true } as never), 'InvalidArgument', /fromJSON: data must be a node/);
      const bad = { children: [item(8, 0, 0, 1, 1), item(9, 1, 0, 0, 1)], leaf: true, height: 1 };
      expectCode(() => t.fromJSON(bad as never), 'InvertedBounds', /fromJSON: item 1/);
      expect(ids(t.all())).toEqual([1, 2, 3]);
    });

    test('after dispose() every call throws Disposed; dispose is idempotent', () => {
      const t = tree();
      t.dispose();
      t.dispose();
      expect(t.disposed).toBe(true);
      const calls: [string, () => unknown][] = [
        ['insert', () => t.insert(item(4, 0, 0, 1, 1))],
        ['load', () => t.load([item(4, 0, 0, 1, 1)])],
        ['remove', () => t.remove(item(4, 0, 0, 1, 1))],
        ['update', () => t.update(item(4, 0, 0, 1, 1))],
        ['clear', () => t.clear()],
        ['search', () => t.search(EVERYTHING)],
        ['collides', () => t.collides(EVERYTHING)],
        ['all', () => t.all()],
        ['pairs', () => t.pairs()],
        ['toJSON', () => t.toJSON()],
      ];
      for (const [name, call] of calls) expectCode(call, 'Disposed', new RegExp(`^${name}: this RBush was disposed`));
    });
  });

  test('insert() and remove() with no item do nothing, as in rbush', () => {
    const t = tree();
    t.insert().insert(undefined).remove().remove(undefined);
    expect(ids(t.all())).toEqual([1, 2, 3]);
  });

  test('update(item) moves it in place: found at its new box only, keeping its place in all()', () => {
    const t = tree();
    const before = ids(t.all());
    const moved = t.all()[0]!;
    Object.assign(moved, { minX: 10, minY: 10, maxX: 11, maxY: 11 });
    t.update(moved);
    expect(ids(t.all())).toEqual(before);
    expect(ids(t.search({ minX: 0, minY: 0, maxX: 1, maxY: 1 }))).toEqual([2]);
    expect(ids(t.search({ minX: 11, minY: 11, maxX: 12, maxY: 12 }))).toEqual([1]);
  });

  test('an item inserted twice is two entries: listed, found and paired twice, removed one at a time', () => {
    const t = tree();
    const a = t.all()[0]!;
    t.insert(a);
    expect(ids(t.all())).toEqual([1, 2, 3, 1]);
    expect(ids(t.search({ minX: 0, minY: 0, maxX: 0, maxY: 0 }))).toEqual([1, 1]);
    expect(t.pairs().map(([p, q]) => `${p.id},${q.id}`)).toEqual(expect.arrayContaining(['1,1', '1,2']));
    t.remove(a);
    expect(ids(t.all())).toEqual([1, 2, 3]);
  });

  test('touching boxes overlap (closed), in float64: a gap float32 cannot hold is still a gap', () => {
    const t = new RBush<Item>();
    const x = 1 / 3;
    const next = x + 2 ** -52; // the float64 after x; float32 rounds both to the same value
    t.load([item(1, 0, 0, x, 1), item(2, next, 0, 1, 1), item(3, x, 0, 1, 1)]);
    expect(ids(t.search({ minX: x, minY: 0, maxX: x, maxY: 0 }))).toEqual([1, 3]);
    expect(
      t
        .pairs()
        .map(([p, q]) => `${p.id},${q.id}`)
        .sort(),
    ).toEqual(['1,3', '2,3']);
  });

  test('collides with a box over much of the items finds an item that only touches its edge', () => {
    // 300 items at x = 100 to 101 and two at the corners of a 200 x 200 extent: the query covers half of it
    const t = new RBush<Item>().load([
      item(0, 0, 0, 0, 0),
      item(1, 200, 200, 200, 200),
      ...Array.from({ length: 300 }, (_, k) => item(k + 2, 100, k / 2, 101, k / 2)),
    ]);
    expect(t.collides({ minX: 1, minY: 1, maxX: 100, maxY: 199 })).toBe(true);
    expect(t.collides({ minX: 1, minY: 1, maxX: 99.9, maxY: 199 })).toBe(false);
    expect(t.collides({ minX: 101, minY: 150.5, maxX: 199, maxY: 199 })).toBe(false);
    expect(t.collides({ minX: 101, minY: 149.5, maxX: 199, maxY: 199 })).toBe(true);
    t.dispose();
  });

  test('began() and ended() give the pairs that changed at each refresh, against brute force', () => {
    const rnd = mulberry32(11);
    const t = new RBush<Item>(9, { events: true });
    const items = Array.from({ length: 120 }, (_, id) => {
      const x = Math.floor(rnd() * 40);
      const y = Math.floor(rnd() * 40);
      return item(id, x, y, x + Math.floor(rnd() * 5), y + Math.floor(rnd() * 5));
    });
    t.load(items);
    const key = ([a, b]: Item[]) => (a!.id < b!.id ? `${a!.id},${b!.id}` : `${b!.id},${a!.id}`);
    const brute = (list: Item[]) => {
      const out = new Set<string>();
      for (let i = 0; i < list.length; i++) {
        for (let j = i + 1; j < list.length; j++) {
          const [a, b] = [list[i]!, list[j]!];
          if (a.minX <= b.maxX && b.minX <= a.maxX && a.minY <= b.maxY && b.minY <= a.maxY) out.add(key([a, b]));
        }
      }
      return out;
    };
    let last = new Set<string>();
    let changes = 0;
    for (let frame = 0; frame < 20; frame++) {
      const live = t.all();
      for (const it of live) {
        if (rnd() < 0.3) {
          const dx = Math.floor(rnd() * 5) - 2;
          Object.assign(it, { minX: it.minX + dx, maxX: it.maxX + dx });
          t.update(it);
        }
      }
      if (frame % 5 === 4) t.remove(live[frame]!);
      const now = brute(t.all());
      const began = new Set(t.began().map(key));
      const ended = new Set(t.ended().map(key));
      expect(began).toEqual(new Set([...now].filter((k) => !last.has(k))));
      expect(ended).toEqual(new Set([...last].filter((k) => !now.has(k))));
      expect(new Set(t.pairs().map(key))).toEqual(now);
      changes += began.size + ended.size;
      last = now;
    }
    expect(changes).toBeGreaterThan(50);
    t.dispose();
  });

  test("toJSON() loads into rbush, and rbush's toJSON() loads here, with the same answers", () => {
    const rnd = mulberry32(3);
    const items = Array.from({ length: 500 }, (_, id) => {
      const x = rnd() * 100;
      const y = rnd() * 100;
      return item(id, x, y, x + rnd() * 5, y + rnd() * 5);
    });
    const ours = new RBush<Item>().load(items);
    const theirs = new RBushReference<Item>().load(items);
    const fromOurs = new RBushReference<Item>().fromJSON(JSON.parse(JSON.stringify(ours.toJSON())));
    const fromTheirs = new RBush<Item>().fromJSON(theirs.toJSON());
    expect(theirs.toJSON().height).toBeGreaterThan(2);
    for (let k = 0; k < 50; k++) {
      const x = rnd() * 100;
      const y = rnd() * 100;
      const q = { minX: x, minY: y, maxX: x + 10, maxY: y + 10 };
      const want = ids(theirs.search(q)).sort((a, b) => a - b);
      expect(ids(fromOurs.search(q)).sort((a, b) => a - b)).toEqual(want);
      expect(ids(fromTheirs.search(q)).sort((a, b) => a - b)).toEqual(want);
    }
    expect(ours.data).toEqual(ours.toJSON());
    expect(ours.toJSON()).toMatchObject({ leaf: true, height: 1, children: items });
  });

  test('a subclass as detect-collisions writes one: its own insert and remove calling super', () => {
    class System extends RBush<Item & { inTree?: boolean }> {
      constructor() {
        super(16);
      }
      override insert(body?: Item & { inTree?: boolean }) {
        if (body?.inTree) super.remove(body);
        if (body) body.inTree = true;
        return super.insert(body);
      }
      checkOne(body: Item) {
        return this.search(body).filter((other) => other !== body);
      }
    }
    const system = new System();
    const a = item(1, 0, 0, 2, 2);
    const b = item(2, 5, 5, 6, 6);
    system.insert(a).insert(b);
    expect(system.checkOne(a)).toEqual([]);
    Object.assign(b, { minX: 1, minY: 1, maxX: 3, maxY: 3 });
    system.insert(b);
    expect(ids(system.checkOne(a))).toEqual([2]);
    expect(ids(system.all())).toEqual([1, 2]);
    expect(system).toBeInstanceOf(RBush);
  });

  test('views of wasm memory ended by a growth between calls are taken again: updates are not lost', () => {
    const t = new RBush<Item>();
    const items = Array.from({ length: 50 }, (_, id) => item(id, id, 0, id + 0.5, 1));
    t.load(items);
    expect(t.search({ minX: 10, minY: 0, maxX: 10, maxY: 0 })).toHaveLength(1);
    const growths = memoryStats().growths;
    for (let round = 0; round < 3; round++) {
      items[10]!.minX = items[10]!.maxX = 1000 + round;
      t.update(items[10]!); // written through the view taken before
      using big = new World({ capacity: 1 << 20 }); // grows wasm memory (where views do not survive it, ends them)
      if (round === 0) expect(memoryStats().growths).toBeGreaterThan(growths);
      void big;
      items[20]!.minX = items[20]!.maxX = 2000 + round;
      t.update(items[20]!); // after the growth
      expect(ids(t.search({ minX: 1000 + round, minY: 0, maxX: 2000 + round, maxY: 1 }))).toEqual([10, 20]);
      expect(t.search({ minX: 10, minY: 0, maxX: 10.1, maxY: 0 })).toEqual([]);
    }
    t.dispose();
  });
});
