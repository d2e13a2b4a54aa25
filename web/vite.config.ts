import { defineConfig, type Plugin } from 'vite';
import { fileURLToPath } from 'node:url';

const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * The page loads sweep-prune/threads only where threads can run (the benchmark's worker, on a cross-origin-isolated
 * page), so the single-threaded module that entry falls back to elsewhere would be emitted and never fetched: its
 * URL is replaced by an error that says why. The build fails if the entry no longer names the module this way.
 */
function threadsWithoutFallback(): Plugin {
  const fallback = "new URL('./generated/sweep_prune.wasm', import.meta.url)";
  return {
    name: 'demo:threads-without-fallback',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('/web/src/threads.ts')) return undefined;
      if (!code.includes(fallback))
        this.error(`web/src/threads.ts no longer contains ${fallback}: update the demo's config`);
      const why = 'the demo loads sweep-prune/threads only on a cross-origin-isolated page';
      return code.replace(fallback, `(() => { throw new Error(${JSON.stringify(why)}); })()`);
    },
  };
}

// The demo page imports the library by its public name, as users do.
export default defineConfig({
  root: fileURLToPath(new URL('./demo', import.meta.url)),
  base: './',
  resolve: {
    alias: [
      { find: /^sweep-prune$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^sweep-prune\/threads$/, replacement: fileURLToPath(new URL('./src/threads.ts', import.meta.url)) },
      // chapter 17 runs the adapters as a game imports them
      {
        find: /^sweep-prune\/(phaser|matter)$/,
        replacement: fileURLToPath(new URL('./src/adapters/$1/index.ts', import.meta.url)),
      },
    ],
  },
  plugins: [threadsWithoutFallback()],
  // the engines chapter 17 imports when it is reached: prepared when the dev server starts, so that the first
  // dynamic import does not make Vite optimise them and reload the page
  optimizeDeps: { include: ['phaser', 'matter-js'] },
  // module workers: the benchmark's worker imports the threaded engine only when it is asked for
  worker: { format: 'es', plugins: () => [threadsWithoutFallback()] },
  // cross-origin isolated (README "Threads"), so that the page has shared memory for sweep-prune/threads
  server: { host: '127.0.0.1', port: 5173, headers: isolation },
  preview: { host: '127.0.0.1', port: 4173, headers: isolation },
  build: {
    outDir: fileURLToPath(new URL('./demo/dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // phaser's own chunk (1.4 MB) is fetched only by chapter 17, when it is reached; the first load is about 230 kB
    chunkSizeWarningLimit: 1500,
  },
});
