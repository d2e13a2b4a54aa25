// What sweep-prune/wasm adds to a Vite build of a page that creates a World: its JS, and its .wasm asset.
import { init, World } from 'sweep-prune/wasm';

void init().then(() => (document.body.textContent = String(new World().dimensions)));
