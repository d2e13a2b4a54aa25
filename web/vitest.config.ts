import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    include: ['tests/js/**/*.test.ts', 'tests/e2e/**/*.test.ts', 'tests/package/**/*.test.ts'],
    // two files at a time, also on two cores (the default leaves one core to the runner): the browser tests spend
    // most of their time waiting on the page's timers and animations
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
