// `new World({ events: false })`: the pairs of every update against brute force, with static boxes (the path that
// sorts pairs when events are on), and clear errors for the lists such a world does not make.
import { beforeAll, describe, expect, test } from 'vitest';
import { init, World } from '../../web/src/index.js';
import { thrown } from './adapters/thrown.js';
import { bruteForce, mulberry32, pairSet, randomBox, type Box } from './oracle.js';

beforeAll(() => init());

describe('World({ events: false })', () => {
  test('every update gives the brute-force pairs, with moving, static, added and removed boxes', () => {
    const rand = mulberry32(19);
    using world = new World({ dimensions: 2, events: false });
    const boxes = new Map<number, Box>();
    for (let i = 0; i < 400; i++) {
      const box = randomBox(rand, 2, 0.06);
      const id = world.addBox(box.min, box.max);
      if (i % 3 === 0) world.setBoxStatic(id, true);
      boxes.set(id, box);
    }
    for (let step = 0; step < 40; step++) {
      for (const [id, box] of boxes) {
        if (world.isBoxStatic(id) || rand() < 0.5) continue;
        const dx = (rand() - 0.5) * 2;
        const moved = { min: box.min.map((v) => Math.fround(v + dx)), max: box.max.map((v) => Math.fround(v + dx)) };
        world.setBox(id, moved.min, moved.max);
        boxes.set(id, moved);
      }
      if (step % 5 === 0) {
        const [id] = boxes.keys();
        world.removeBox(id!);
        boxes.delete(id!);
        const box = randomBox(rand, 2, 0.06);
        boxes.set(world.addBox(box.min, box.max), box);
      }
      world.update();
      // static boxes never pair with each other
      const want = bruteForce(boxes).filter((p) => !p.split(',').every((id) => world.isBoxStatic(Number(id))));
      expect(pairSet(world.pairs)).toEqual(want);
      expect(world.pairCount).toBe(want.length);
      expect(world.counters.began).toBe(0);
    }
    expect(world.counters.pairs).toBeGreaterThan(100);
  });

  test('began, ended and their loops throw InvalidArgument naming the option', () => {
    using world = new World({ events: false });
    world.addBox([0, 0], [1, 1]);
    world.addBox([0, 0], [1, 1]);
    world.update();
    for (const read of [
      () => world.began,
      () => world.ended,
      () => world.forEachBegan(() => {}),
      () => world.forEachEnded(() => {}),
    ]) {
      const error = thrown(read);
      expect(error?.code).toBe('InvalidArgument');
      expect(error?.message).toMatch(/events: false/);
    }
    let pairs = 0;
    world.forEachPair(() => pairs++);
    expect(pairs).toBe(1);
  });

  test('a bad events option throws before a world is made', () => {
    expect(() => new World({ events: 'no' as unknown as boolean })).toThrow(/options.events must be true or false/);
    using world = new World({ events: true });
    world.addBox([0, 0], [1, 1]);
    world.addBox([0, 0], [1, 1]);
    world.update();
    expect(world.began.length).toBe(2);
  });
});
