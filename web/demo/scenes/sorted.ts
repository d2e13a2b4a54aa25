// Chapter 4: sort by min x, then test each ball only against the balls that start before it ends. A plain JS
// loop; the order persists between frames and is repaired by insertion sort (chapter 10 says why).
import { BallScene, type CreateScene, type Stat } from '../scene.js';
import type { Ball } from '../sim.js';

class SortedPairwise extends BallScene {
  order: Ball[] = [...this.balls];
  swaps = 0;

  /** The line of chapter 4's code being run (lit in the page). */
  codeLine: string | undefined;

  /** A beat on a line of the code, when the figure shows its code and is slowed down to be watched (a figure
   * without it keeps a pause per test only: chapter 5 compares the views by their pauses). */
  *#on(line: string, share: number): Generator<number, void, void> {
    this.codeLine = line;
    if (this.options.checks && this.options.data.code !== undefined) yield this.options.delay * share;
  }

  protected *detect(): Generator<number, void, void> {
    const order = this.order;
    this.swaps = 0;
    yield* this.#on('sort', 1);
    // insertion sort by left edge: almost no work when the balls barely moved
    for (let i = 1; i < order.length; i++) {
      const b = order[i]!;
      let j = i - 1;
      for (; j >= 0 && order[j]!.x - order[j]!.r > b.x - b.r; j--) {
        order[j + 1] = order[j]!;
        this.swaps++;
      }
      order[j + 1] = b;
    }
    for (let i = 0; i < order.length; i++) {
      const a = order[i]!;
      const right = a.x + a.r;
      for (let j = i + 1; j < order.length; j++) {
        const b = order[j]!;
        if (b.x - b.r > right) {
          yield* this.#on('break', 0.25); // every later ball starts even further right
          break;
        }
        this.codeLine = 'test';
        yield* this.check(a, b);
      }
    }
    this.codeLine = undefined;
  }

  override stats(): Stat[] {
    const n = this.balls.length;
    return [
      ...super.stats(),
      { key: 'swaps', label: 'sort swaps', value: this.swaps },
      { key: 'pairs', label: 'pairs in n(n-1)/2', value: (n * (n - 1)) / 2 },
    ];
  }
}

export const createScene: CreateScene = (canvas, setup) => new SortedPairwise(canvas, setup);
