// The demo page for the browser tests: the Vite dev server on a free port, Chromium (Debian's, driven by
// playwright-core) with a profile of its own opened on the page, and the probes the tests share: a canvas's pixels,
// a view's frames and counters, a figure built, the page scrolled to a standstill.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { CHROMIUM_ARGS } from '../../web/scripts/chromium.mjs';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const vite = join(root, 'node_modules/.bin/vite');
export const config = join(root, 'web/vite.config.ts');
const CHROMIUM = '/usr/bin/chromium';

/** The desktop and the phone every page test runs on. */
export const DESKTOP = { viewport: { width: 1100, height: 800 }, deviceScaleFactor: 2 };
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };

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

/** The Vite dev server on the demo page; `stop()` ends it. */
export async function startDemoServer(): Promise<{ url: string; stop: () => void }> {
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

/** What a page reported: console errors and uncaught exceptions, and every URL it asked for, in order. */
export interface PageLog {
  errors: string[];
  requests: string[];
}

/** Chromium with the profile in `dir`, on the page at `url`, ready; what it reports goes to `log`. */
export async function openDemo(
  url: string,
  dir: string,
  device: Parameters<typeof chromium.launchPersistentContext>[1],
  log: PageLog,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS as string[],
    ...device,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m) => {
    if (m.type() === 'error') log.errors.push(m.text());
  });
  page.on('pageerror', (e) => log.errors.push(e.message));
  page.on('request', (r) => log.requests.push(r.url()));
  await page.goto(url);
  await page.waitForSelector('html[data-ready=true]', { timeout: 30_000 });
  return { context, page };
}

/**
 * The demo page for one test file: the server started before its tests and stopped after them, and browsers on the
 * page, each with a profile in a temporary directory. `open` one, `close` it after its group of tests (a page left
 * open goes on drawing its figures and slows every test after it); what is still open closes at the end of the file.
 * `log` gathers what every page reported.
 */
export function demoPages(): {
  log: PageLog;
  url(): string;
  open(device: typeof DESKTOP | typeof PHONE): Promise<Page>;
  close(page: Page | undefined): Promise<void>;
} {
  const log: PageLog = { errors: [], requests: [] };
  let server: { url: string; stop: () => void } | undefined;
  const opened: Array<{ context: BrowserContext; dir: string; page: Page }> = [];
  const close = async (page: Page | undefined): Promise<void> => {
    const at = opened.findIndex((o) => o.page === page);
    if (at < 0) return;
    const { context, dir } = opened.splice(at, 1)[0]!;
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  };
  beforeAll(async () => {
    server = await startDemoServer();
  });
  afterAll(async () => {
    while (opened.length > 0) await close(opened[0]!.page);
    server?.stop();
  });
  return {
    log,
    url: () => server!.url,
    async open(device) {
      const dir = mkdtempSync(join(tmpdir(), 'chromium-'));
      const { context, page } = await openDemo(server!.url, dir, device, log);
      opened.push({ context, dir, page });
      return page;
    },
    close,
  };
}

/**
 * Bring a figure's canvas to the middle of the window at once: the page scrolls smoothly, and a click that scrolls
 * it there itself can find the page still moving.
 */
export async function inSight(figure: Locator): Promise<void> {
  await figure
    .locator('canvas.sim')
    .first()
    .evaluate((c) => c.scrollIntoView({ block: 'center', behavior: 'instant' }));
}

/** A cheap fingerprint of a canvas's pixels, and whether it holds more than one colour. */
export async function pixels(canvas: Locator): Promise<{ hash: number; colours: number; width: number }> {
  return canvas.evaluate((c: HTMLCanvasElement) => {
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let hash = 0;
    const seen = new Set<number>();
    for (let i = 0; i < data.length; i += 4) {
      const v = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!;
      hash = (Math.imul(hash, 31) + v) | 0;
      if (seen.size < 64) seen.add(v);
    }
    return { hash, colours: seen.size, width: c.width };
  });
}

export const frames = async (view: Locator): Promise<number> => Number(await view.getAttribute('data-frames'));
export const stat = async (view: Locator, key: string): Promise<string> =>
  (await view.locator(`[data-stat="${key}"] dd`).textContent()) ?? '';

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

/** Wait until `page` stands still (smooth scrolling from an earlier scrollIntoView has finished). */
export async function scrolledStill(page: Page): Promise<void> {
  let last = NaN;
  await expect
    .poll(async () => {
      const y = await page.evaluate(() => new Promise<number>((r) => requestAnimationFrame(() => r(window.scrollY))));
      const still = y === last;
      last = y;
      return still;
    })
    .toBe(true);
}

/** Start recording the page's long tasks; the returned function stops and gives their durations in ms. */
export async function watchLongTasks(page: Page): Promise<() => Promise<number[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[]; longTaskObserver: PerformanceObserver };
    w.longTasks = [];
    w.longTaskObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks.push(e.duration);
    });
    w.longTaskObserver.observe({ type: 'longtask' });
  });
  return () =>
    page.evaluate(() => {
      const w = window as unknown as { longTasks: number[]; longTaskObserver: PerformanceObserver };
      w.longTaskObserver.disconnect();
      return w.longTasks;
    });
}
