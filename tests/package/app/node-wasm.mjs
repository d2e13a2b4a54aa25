// sweep-prune/wasm in Node: init() reads the .wasm beside the module from disk (Node's fetch cannot read file: URLs)
import { existsSync } from 'node:fs';
import * as sp from 'sweep-prune/wasm';
import { runScene } from './scene.mjs';

await sp.init();
const wasmFile = existsSync(new URL(import.meta.resolve('sweep-prune/sweep_prune.wasm')));
console.log(JSON.stringify({ ...runScene(sp), wasmFile }));
