// The browser page: ?entry=wasm loads sweep-prune/wasm (separate .wasm file), otherwise the default entry.
import { runScene } from './scene.mjs';

const entry = new URLSearchParams(location.search).get('entry') ?? 'default';
const out = document.querySelector('#out');
try {
  const sp = entry === 'wasm' ? await import('sweep-prune/wasm') : await import('sweep-prune');
  await sp.init();
  out.textContent = JSON.stringify({ entry, ...runScene(sp) });
} catch (error) {
  out.textContent = JSON.stringify({ entry, error: String(error?.stack ?? error) });
}
