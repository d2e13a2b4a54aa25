// A physics world's bodies numbered in creation order, for comparing twin worlds (engines number bodies with a
// global counter, so twins differ there), with the seeded random numbers that build both twins alike.
import { mulberry32 } from '../oracle.js';

export class Labeled<B, W extends { addBody(body: B): unknown; removeBody(body: B): unknown }> {
  readonly label = new Map<B, number>();
  readonly live: B[] = [];
  readonly rng: () => number;
  #next = 0;

  constructor(
    readonly world: W,
    seed: number,
  ) {
    this.rng = mulberry32(seed);
  }

  add(body: B): B {
    this.label.set(body, this.#next++);
    this.live.push(body);
    this.world.addBody(body);
    return body;
  }

  remove(body: B): void {
    this.live.splice(this.live.indexOf(body), 1);
    this.world.removeBody(body);
  }
}
