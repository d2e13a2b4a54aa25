import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

// The demo page imports the library by its public name, as users do.
export default defineConfig({
  root: fileURLToPath(new URL('./demo', import.meta.url)),
  base: './',
  resolve: {
    alias: { 'sweep-prune': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
  build: {
    outDir: fileURLToPath(new URL('./demo/dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
  },
});
