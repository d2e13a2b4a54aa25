// The page: load the engine, then set up every figure (each is built when it comes near the screen). Scenes are
// registered here by the name used in data-scene="...".
import { init } from 'sweep-prune';
import { applyPalette } from './palette.js';
import type { CreateScene } from './scene.js';
import { landLinks } from './nav.js';
import { mountAll } from './ui.js';
import * as benchmark from './scenes/benchmark.js';
import * as edges from './scenes/edges.js';
import * as engines from './scenes/engines.js';
import * as game from './scenes/game.js';
import * as gridvs from './scenes/gridvs.js';
import * as pairwise from './scenes/pairwise.js';
import * as sap from './scenes/sap.js';
import * as scale from './scenes/scale.js';
import * as sort from './scenes/sort.js';
import * as sorted from './scenes/sorted.js';
import * as squash from './scenes/squash.js';
import * as sweep from './scenes/sweep.js';
import * as swaps from './scenes/swaps.js';
import * as swapcases from './scenes/swapcases.js';
import * as transitivity from './scenes/transitivity.js';
import * as tunnel from './scenes/tunnel.js';

const scenes = new Map<string, CreateScene>([
  ['pairwise', pairwise.createScene],
  ['transitivity', transitivity.createScene],
  ['sorted', sorted.createScene],
  ['edges', edges.createScene],
  ['sweep', sweep.createScene],
  ['sap', sap.createScene],
  ['sort', sort.createScene],
  ['swaps', swaps.createScene],
  ['swapcases', swapcases.createScene],
  ['game', game.createScene],
  ['scale', scale.createScene],
  ['benchmark', benchmark.createScene],
  ['gridvs', gridvs.createScene],
  ['squash', squash.createScene],
  ['tunnel', tunnel.createScene],
  ['engines', engines.createScene],
]);

applyPalette(document.documentElement);
try {
  // the engine embedded in the page's script (no fetch); the benchmark's worker loads its own, the threaded one
  // only when the reader asks for threads
  await init();
  mountAll(scenes);
  landLinks();
  document.documentElement.dataset.ready = 'true';
} catch (e) {
  const p = document.createElement('p');
  p.className = 'load-error';
  p.textContent = `The demos could not start: ${(e as Error).message}`;
  document.querySelector('main')?.prepend(p);
  throw e;
}
