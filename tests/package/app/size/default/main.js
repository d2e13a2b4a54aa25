// What the default entry adds to a Vite build of a page that creates a World (measured against size/none).
import { init, World } from 'sweep-prune';

void init().then(() => (document.body.textContent = String(new World().dimensions)));
