// The demo page for the browser tests: the Vite dev server on a free port, and what waits for a figure to be built.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locator } from 'playwright-core';
import { expect } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const vite = join(root, 'node_modules/.bin/vite');
const config = join(root, 'web/vite.config.ts');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, server: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`vite exited (${server.exitCode}):\n${log()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`vite did not answer at ${url}:\n${log()}`);
}

/** The Vite dev server serving the demo page; `stop()` ends it. */
export async function serveDemo(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  let output = '';
  const server = spawn(vite, ['--config', config, '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d) => (output += d));
  server.stderr!.on('data', (d) => (output += d));
  await waitForServer(url, server, () => output);
  return { url, stop: () => server.kill() };
}

/** Wait until a figure (or the figure of a view) near the screen has been built and its canvas sized. */
export async function mounted(inside: Locator): Promise<void> {
  const figure = inside.locator('xpath=ancestor-or-self::figure[contains(@class, "demo")]');
  await expect.poll(() => figure.getAttribute('data-mounted')).toBe('true');
  await expect
    .poll(() =>
      inside
        .locator('canvas.sim')
        .first()
        .evaluate((c: HTMLCanvasElement) => c.width),
    )
    .toBeGreaterThan(0);
}
