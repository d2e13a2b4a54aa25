// sweep-prune/phaser's types as a TypeScript user sees them, against Phaser's own .d.ts: the world a scene has is
// accepted as it is typed, and what is not an Arcade world is not.
import { init, SweepPruneError } from 'sweep-prune';
import { type ArcadeSweepPrune, usePhaserArcade } from 'sweep-prune/phaser';
import Phaser from 'phaser';

await init();

export class Level extends Phaser.Scene {
  create(): void {
    const handle: ArcadeSweepPrune = usePhaserArcade(this.physics.world);
    const stopped: boolean = handle.stopped;
    const boxes: number = handle.world.boxCount;
    handle.stop();
    // @ts-expect-error a matter world is not an Arcade world
    usePhaserArcade(this.matter.world);
    // @ts-expect-error nor is the scene
    usePhaserArcade(this);
    void [stopped, boxes, SweepPruneError];
  }
}
