// The browser page: ?entry=wasm loads sweep-prune/wasm (separate .wasm file), ?entry=threads sweep-prune/threads
// (and reports whether a world got its 2 threads), otherwise the default entry.
import { runScene } from './scene.mjs';

const entry = new URLSearchParams(location.search).get('entry') ?? 'default';
const out = document.querySelector('#out');
try {
  const sp =
    entry === 'wasm'
      ? await import('sweep-prune/wasm')
      : entry === 'threads'
        ? await import('sweep-prune/threads')
        : await import('sweep-prune');
  await sp.init();
  const threads = {};
  if (entry === 'threads') {
    const world = new sp.World({ threads: 2 });
    // world.threads counts the workers running: wait for the worker to start, where threads can run
    for (const end = Date.now() + 10000; world.threads < 2 && crossOriginIsolated && Date.now() < end;) {
      await new Promise((r) => setTimeout(r, 10));
    }
    Object.assign(threads, { threaded: sp.isThreaded(), threads: world.threads });
    world.dispose();
  }
  out.textContent = JSON.stringify({ entry, ...runScene(sp), ...threads });
} catch (error) {
  out.textContent = JSON.stringify({ entry, error: String(error?.stack ?? error) });
}
