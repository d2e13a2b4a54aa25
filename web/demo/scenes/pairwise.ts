// Chapter 2: the naive broadphase. Every pair is handed to intersects(), in a plain JS double loop.
import { BallScene, type CreateScene, type Stat } from '../scene.js';

class Pairwise extends BallScene {
  protected *detect(): Generator<number, void, void> {
    const { balls } = this;
    for (let i = 0; i < balls.length; i++) {
      for (let j = i + 1; j < balls.length; j++) yield* this.check(balls[i]!, balls[j]!);
    }
  }

  override stats(): Stat[] {
    const n = this.balls.length;
    return [...super.stats(), { key: 'pairs', label: 'pairs in n(n-1)/2', value: (n * (n - 1)) / 2 }];
  }
}

export const createScene: CreateScene = (canvas, setup) => new Pairwise(canvas, setup);
