// Chapter 10: the sort itself. Ticks along the top are the slots of the edge array; each is joined to the edge it
// holds. A crossing means two edges are in the wrong order. data-sort="quick" re-sorts the array with quicksort
// every frame; data-sort="insertion" repairs it with insertion sort. Both are plain JS loops, instrumented:
// comparisons flash cyan, swaps red. The balls themselves collide through the engine, whose own insertion-sorted
// endpoint list is counted alongside.
import { BallScene, type CreateScene, type SceneSetup, type Stat } from '../scene.js';
import type { Surface } from '../draw.js';
import type { Ball } from '../sim.js';
import { COMPARE, LINK, SWAP } from '../palette.js';
import { costTable } from '../sort-costs.js';
import { insertionSort, quicksort, type InputOrder, type SortTarget } from '../sorts.js';

const COMPARE_MS = 25;
const SWAP_MS = 80;
const TICK_Y = 18;
const JOIN_Y = 78;

interface Edge {
  ball: Ball;
  isLeft: boolean;
}

const edgeX = (e: Edge): number => (e.isLeft ? e.ball.x - e.ball.r : e.ball.x + e.ball.r);

class SortScene extends BallScene {
  readonly edges: Edge[];
  readonly quick: boolean;
  comparisons = 0;
  swaps = 0;
  /** The last complete sort's comparisons and swaps. */
  last = { comparisons: 0, swaps: 0 };
  /** Slots flashing right now, and in which colour. */
  flash: { i: number; j: number; color: string } | undefined;

  constructor(surface: Surface, setup: SceneSetup) {
    super(surface, setup);
    this.quick = setup.options.data.sort === 'quick';
    this.edges = this.balls.flatMap((ball) => [
      { ball, isLeft: true },
      { ball, isLeft: false },
    ]);
    this.useWorld(1);
    // the view with data-costs puts the cost table under the figure's views (across both), its choice kept there
    if (setup.options.data.costs !== undefined) {
      const figure = setup.panel.closest<HTMLElement>('figure')!;
      const kept = figure.dataset.order as InputOrder | undefined;
      this.#costs = costTable(kept ?? 'frame', (order) => (figure.dataset.order = order));
      figure.querySelector('.views')!.after(this.#costs.box);
    }
  }

  readonly #costs: ReturnType<typeof costTable> | undefined;

  override dispose(): void {
    this.#costs?.dispose();
    this.#costs?.box.remove();
    super.dispose();
  }

  /** The edge array as the sorts see it: each comparison flashes cyan and each swap red, with a pause. */
  readonly #target: SortTarget = {
    key: (i) => edgeX(this.edges[i]!),
    compare: function* (this: SortScene, i: number, j: number) {
      this.comparisons++;
      this.flash = { i, j, color: COMPARE };
      yield COMPARE_MS;
    }.bind(this),
    swap: function* (this: SortScene, i: number, j: number) {
      const e = this.edges;
      [e[i], e[j]] = [e[j]!, e[i]!];
      this.swaps++;
      this.flash = { i, j, color: SWAP };
      yield SWAP_MS;
    }.bind(this),
  };

  protected *detect(): Generator<number, void, void> {
    this.comparisons = 0;
    this.swaps = 0;
    if (this.quick) yield* quicksort(this.#target, 0, this.edges.length - 1);
    else yield* insertionSort(this.#target, this.edges.length);
    this.flash = undefined;
    this.last = { comparisons: this.comparisons, swaps: this.swaps };
    this.world!.endpoints(0); // the engine's own list, repaired the same way (counted in endpointSwaps)
    const pairs = this.world!.pairs.slice();
    for (let i = 0; i < pairs.length; i += 2) yield* this.check(this.ballOf(pairs[i]!), this.ballOf(pairs[i + 1]!));
  }

  protected override drawUnder(): void {
    const g = this.surface;
    const n = this.edges.length;
    const slotX = (i: number): number => ((i + 0.5) / n) * g.width;
    const linked = this.setup.link.ball;
    for (const e of this.edges) {
      const mine = e.ball === linked;
      g.line(edgeX(e), JOIN_Y, edgeX(e), g.height, mine ? LINK : e.ball.color, mine ? 3 : 1.5, [6, 6]);
    }
    this.edges.forEach((e, i) => {
      const f = this.flash;
      const lit = f && (f.i === i || f.j === i);
      const mine = e.ball === linked;
      const color = lit ? f.color : mine ? LINK : e.ball.color;
      g.line(slotX(i), TICK_Y, edgeX(e), JOIN_Y, color, lit || mine ? 3 : 1.5);
      g.line(slotX(i), 4, slotX(i), TICK_Y, color, lit || mine ? 4 : 2);
      g.text(e.isLeft ? '(' : ')', slotX(i), TICK_Y + 10, color, 13, 'center', '700');
    });
  }

  override stats(): Stat[] {
    const c = this.world!.counters;
    return [
      { key: 'frame', label: 'frame', value: this.step },
      { key: 'lastComparisons', label: 'comparisons, last sort', value: this.last.comparisons },
      { key: 'lastSwaps', label: 'swaps, last sort', value: this.last.swaps },
      {
        key: 'comparisons',
        label: `${this.quick ? 'quicksort' : 'insertion sort'} comparisons, this pass so far`,
        value: this.comparisons,
      },
      { key: 'swaps', label: 'swaps, this pass so far', value: this.swaps },
      { key: 'engineSwaps', label: 'engine endpoint swaps, last update', value: c.endpointSwaps },
    ];
  }
}

export const createScene: CreateScene = (canvas, setup) => new SortScene(canvas, setup);
