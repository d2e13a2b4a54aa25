import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

// The demo page imports the library by its public name, as users do.
export default defineConfig({
  root: fileURLToPath(new URL('./demo', import.meta.url)),
  base: './',
  resolve: {
    alias: [
      { find: /^sweep-prune$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
      { find: /^sweep-prune\/threads$/, replacement: fileURLToPath(new URL('./src/threads.ts', import.meta.url)) },
    ],
  },
  // cross-origin isolated (README "Threads"), so that the page has shared memory for sweep-prune/threads
  server: { host: '127.0.0.1', port: 5173, headers: isolation },
  preview: { host: '127.0.0.1', port: 4173, headers: isolation },
  build: {
    outDir: fileURLToPath(new URL('./demo/dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
  },
});
