// Chapter 7: the sweep. A line walks the engine's sorted x endpoint list from left to right, keeping the set of
// balls it is inside. With data-report, entering a ball pairs it with every ball already in the set: those are
// exactly the x-overlapping pairs, which the engine's own pair list confirms. Under the canvas: the sorted edge
// strip with the edge the line stands on marked, and the touching set as chips. The line glides between edges in
// soft pauses, so Step goes from one edge to the next.
import { BallScene, type CreateScene, type SceneSetup, type Stat } from '../scene.js';
import type { Surface } from '../draw.js';
import type { Ball } from '../sim.js';
import { INSIDE, LINK, MUTED, SWEEP } from '../palette.js';
import { Chips, EdgeStrip } from '../strip.js';

const STEP_PX = 6;
const STEP_MS = 25;
const EDGE_MS = 120;

class Sweep extends BallScene {
  sweepX = -1;
  touching = new Set<Ball>();
  reported = 0;
  /** The line of chapter 7's code being run (lit in the page). */
  codeLine: string | undefined;
  /** The last complete sweep: pairs it reported and the engine's count for the same update (a held comparison). */
  held: { reported: number; engine: number } | undefined;
  readonly report: boolean;
  /** This pass's sorted edges (refs), and the index of the edge the line last reached (-1 before the first). */
  #list: number[] = [];
  #current = -1;
  readonly #strip: EdgeStrip;
  readonly #chips: Chips;

  constructor(surface: Surface, setup: SceneSetup) {
    super(surface, setup);
    this.report = setup.options.data.report !== undefined;
    this.useWorld(1);
    this.#strip = new EdgeStrip(setup.panel, 'Sorted edges (the line stands on the marked one)', setup.link);
    this.#chips = new Chips(setup.panel, 'Balls on the line (the set)');
  }

  protected *detect(): Generator<number, void, void> {
    const { values, refs } = this.world!.endpoints(0);
    const xs = Array.from(values);
    const list = (this.#list = Array.from(refs));
    this.touching = new Set();
    this.reported = 0;
    this.#current = -1;
    let next = 0;
    for (let x = 0; x <= this.surface.width + STEP_PX; x += STEP_PX) {
      this.sweepX = x;
      while (next < list.length && xs[next]! <= x) {
        this.#current = next;
        const ball = this.ballAtSlot(list[next]! >>> 1);
        if (list[next]! & 1) {
          this.codeLine = 'remove';
          this.touching.delete(ball);
        } else {
          if (this.report) {
            this.codeLine = 'report';
            for (const other of this.touching) {
              this.reported++;
              yield* this.check(other, ball);
            }
          }
          this.codeLine = 'add';
          this.touching.add(ball);
        }
        next++;
        this.sweepX = xs[next - 1]!; // on the edge itself
        yield EDGE_MS; // the line stops at each edge: a beat for Step
      }
      this.codeLine = 'loop';
      yield -STEP_MS; // gliding between edges: soft
    }
    this.codeLine = undefined;
    this.sweepX = -1;
    this.#current = -1;
    this.held = { reported: this.reported, engine: this.world!.counters.pairs };
  }

  panel(): void {
    const name = (b: Ball): string => this.nameOf(b);
    const marked = new Map<number, string>();
    const cur = this.#list[this.#current];
    if (cur !== undefined) marked.set(cur, SWEEP);
    this.#strip.update(
      this.#list.map((ref) => {
        const ball = this.ballAtSlot(ref >>> 1);
        return { ref, ball, color: this.touching.has(ball) && this.sweepX >= 0 ? INSIDE : MUTED };
      }),
      name,
      marked,
    );
    this.#chips.update(this.sweepX >= 0 ? [...this.touching] : [], name, this.setup.link.ball);
  }

  protected override colorOf(b: Ball): string {
    return this.touching.has(b) && this.sweepX >= 0 ? INSIDE : super.colorOf(b);
  }

  protected override drawUnder(): void {
    for (const b of this.balls) {
      const mine = b === this.setup.link.ball;
      this.surface.vline(b.x - b.r, mine ? LINK : MUTED, mine ? 3 : 1.5);
      this.surface.vline(b.x + b.r, mine ? LINK : MUTED, mine ? 3 : 1.5);
    }
  }

  protected override drawOver(): void {
    if (this.sweepX >= 0) this.surface.line(this.sweepX, 0, this.sweepX, this.surface.height, SWEEP, 3);
  }

  override stats(): Stat[] {
    const s: Stat[] = [
      { key: 'frame', label: 'frame', value: this.step },
      { key: 'touching', label: 'balls on the line', value: this.sweepX >= 0 ? this.touching.size : 0 },
    ];
    if (this.report) {
      const h = this.held;
      s.push(
        { key: 'reported', label: 'pairs reported, this sweep so far', value: this.reported },
        {
          key: 'held',
          label: 'last full sweep: reported vs engine',
          value: h ? `${h.reported} ${h.reported === h.engine ? '=' : '≠'} ${h.engine}` : '–',
        },
      );
    }
    return s;
  }
}

export const createScene: CreateScene = (canvas, setup) => new Sweep(canvas, setup);
