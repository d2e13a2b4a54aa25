import * as sp from 'sweep-prune';
import { runScene } from './scene.mjs';

await sp.init();
console.log(JSON.stringify(runScene(sp)));
