// Chapters 1, 8, 9 and 12: the wasm engine is the broadphase. In 1D it reports pairs whose x spans overlap; in 2D
// pairs whose boxes overlap on both axes. Each reported pair goes to intersects().
import { BallScene, type CreateScene, type SceneSetup, type Stat } from '../scene.js';
import type { Surface } from '../draw.js';

class EngineScene extends BallScene {
  constructor(surface: Surface, setup: SceneSetup) {
    super(surface, setup);
    this.useWorld(setup.options.data.dims === '1' ? 1 : 2);
  }

  protected *detect(): Generator<number, void, void> {
    const pairs = this.world!.pairs.slice(); // keep a copy: drawing reads endpoints, which may grow memory
    for (let i = 0; i < pairs.length; i += 2) yield* this.check(this.ballOf(pairs[i]!), this.ballOf(pairs[i + 1]!));
  }

  override stats(): Stat[] {
    return [...super.stats(), ...this.engineStats()];
  }
}

export const createScene: CreateScene = (canvas, setup) => new EngineScene(canvas, setup);
