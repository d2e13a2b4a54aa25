import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

// The files that time the page's tasks, run alone once the others are done.
const alone = ['tests/e2e/page-tasks.test.ts'];

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'tests',
          include: ['tests/js/**/*.test.ts', 'tests/e2e/**/*.test.ts', 'tests/package/**/*.test.ts'],
          exclude: alone,
          // two files at a time, also on two cores (the default leaves one core to the runner): the browser tests
          // spend most of their time waiting on the page's timers and animations
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'timed', include: alone, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
