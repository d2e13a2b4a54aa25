// The demo page in real Chromium (Debian's /usr/bin/chromium driven by playwright-core), served by the Vite dev
// server: it loads cleanly, every chapter draws and animates when on screen, dragging changes the live output,
// counters advance, pause and step work, the benchmark runs, reduced motion is respected, and the static build works.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const vite = join(root, 'node_modules/.bin/vite');
const config = join(root, 'web/vite.config.ts');
const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

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

let server: ChildProcess | undefined;
let context: BrowserContext | undefined;
let page: Page;
let url = '';
const errors: string[] = [];
let profile = '';

beforeAll(async () => {
  const port = await freePort();
  url = `http://127.0.0.1:${port}/`;
  let output = '';
  server = spawn(vite, ['--config', config, '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d) => (output += d));
  server.stderr!.on('data', (d) => (output += d));
  await waitForServer(url, server, () => output);
  profile = mkdtempSync(join(tmpdir(), 'chromium-'));
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1100, height: 800 },
    deviceScaleFactor: 2,
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForSelector('html[data-ready=true]', { timeout: 30_000 });
});

afterAll(async () => {
  await context?.close();
  server?.kill();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** A cheap fingerprint of a canvas's pixels, and whether it holds more than one colour. */
async function pixels(canvas: Locator): Promise<{ hash: number; colours: number; width: number }> {
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

const frames = async (view: Locator): Promise<number> => Number(await view.getAttribute('data-frames'));
const stat = async (view: Locator, key: string): Promise<string> =>
  (await view.locator(`[data-stat="${key}"] dd`).textContent()) ?? '';

/** Ball i of a view, in client coordinates. */
async function ballAt(view: Locator, i: number): Promise<{ x: number; y: number; r: number }> {
  const canvas = view.locator('canvas.sim');
  const box = (await canvas.boundingBox())!;
  const [x, y, r] = (await view.getAttribute('data-positions'))!.split(' ')[i]!.split(',').map(Number) as [number, number, number];
  const s = box.width / 600;
  return { x: box.x + x * s, y: box.y + y * s, r: r * s };
}

async function drag(from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let k = 1; k <= 8; k++) await page.mouse.move(from.x + ((to.x - from.x) * k) / 8, from.y + ((to.y - from.y) * k) / 8);
  await page.mouse.up();
}

describe('demo page in Chromium', () => {
  test('loads every chapter with no console error', async () => {
    const sections = page.locator('main section');
    expect(await sections.count()).toBe(14);
    for (const s of await sections.all()) expect(await s.locator('figure.demo canvas.sim').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  test('canvases are drawn at devicePixelRatio', async () => {
    const first = await pixels(page.locator('#sim canvas.sim'));
    expect(first.width).toBe(1200);
  });

  test('each chapter draws and animates when scrolled into view, and only then', async () => {
    const figures = page.locator('figure.demo:not(.bench)');
    const count = await figures.count();
    const last = figures.nth(count - 1).locator('.view').first();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    const offscreen = await frames(last);
    for (let i = 0; i < count; i++) {
      const figure = figures.nth(i);
      await figure.scrollIntoViewIfNeeded();
      const views = figure.locator('.view');
      const still = (await figure.getAttribute('data-still')) !== null;
      for (let v = 0; v < (await views.count()); v++) {
        const view = views.nth(v);
        const canvas = view.locator('canvas.sim');
        const before = await frames(view);
        const a = await pixels(canvas);
        const label = `${await figure.locator('xpath=ancestor::section').getAttribute('id')} view ${v}`;
        // still scenes redraw the same picture every frame; moving ones must change it
        if (still) await expect.poll(() => frames(view), { message: `${label} runs` }).toBeGreaterThan(before);
        else await expect.poll(async () => (await pixels(canvas)).hash, { message: `${label} animates` }).not.toBe(a.hash);
        expect((await pixels(canvas)).colours, `${label} draws`).toBeGreaterThan(2);
      }
    }
    // the last figure did not run while the reader was at the top of the page
    expect(offscreen).toBe(0);
    expect(errors).toEqual([]);
  });

  test('dragging in the transitivity demo changes the live output', async () => {
    const view = page.locator('#transitivity .view');
    await view.scrollIntoViewIfNeeded();
    const out = view.locator('.live-output');
    const before = await out.textContent();
    expect(await out.getAttribute('data-verdict')).toBe('skip');
    const a = await ballAt(view, 0);
    const b = await ballAt(view, 1);
    await drag(a, { x: b.x - b.r * 0.2, y: a.y });
    await expect.poll(() => out.getAttribute('data-ab')).toBe('true');
    expect(await out.textContent()).not.toBe(before);
  });

  test('dragging in the edges demo reorders the engine’s edge list', async () => {
    const view = page.locator('#edges .view').first();
    await view.scrollIntoViewIfNeeded();
    const strip = view.locator('.strip');
    const before = await strip.getAttribute('data-order');
    const balls = (await view.getAttribute('data-positions'))!.split(' ').map((s) => Number(s.split(',')[0]));
    const leftmost = balls.indexOf(Math.min(...balls));
    const from = await ballAt(view, leftmost);
    const box = (await view.locator('canvas.sim').boundingBox())!;
    await drag(from, { x: box.x + box.width - from.r - 2, y: from.y });
    await expect.poll(() => strip.getAttribute('data-order')).not.toBe(before);
  });

  test('counters advance', async () => {
    const view = page.locator('#naive .view').first();
    await view.scrollIntoViewIfNeeded();
    const f0 = Number(await stat(view, 'frame'));
    await expect.poll(async () => Number(await stat(view, 'frame'))).toBeGreaterThan(f0);
    await expect.poll(async () => Number(await stat(view, 'tested'))).toBeGreaterThan(0);
    expect(await stat(view, 'pairs')).toBe('10');
  });

  test('pause stops a demo and step advances it one beat', async () => {
    const figure = page.locator('#naive figure').first();
    const view = figure.locator('.view');
    await figure.scrollIntoViewIfNeeded();
    await figure.locator('[data-action=play]').click();
    expect(await figure.getAttribute('data-state')).toBe('paused');
    await page.waitForTimeout(100);
    const canvas = view.locator('canvas.sim');
    const paused = { frames: await frames(view), pixels: (await pixels(canvas)).hash };
    await page.waitForTimeout(400);
    expect(await frames(view)).toBe(paused.frames);
    expect((await pixels(canvas)).hash).toBe(paused.pixels);
    // a few steps: beats within a slowed-down pass, then whole frames
    let changed = false;
    for (let k = 0; k < 6 && !changed; k++) {
      await figure.locator('[data-action=step]').click();
      changed = (await pixels(canvas)).hash !== paused.pixels;
    }
    expect(changed).toBe(true);
    expect(await figure.getAttribute('data-state')).toBe('paused');
    await figure.locator('[data-action=play]').click();
    expect(await figure.getAttribute('data-state')).toBe('playing');
  });

  test('the ball-count control rebuilds the scene', async () => {
    const figure = page.locator('#naive figure').nth(1);
    await figure.scrollIntoViewIfNeeded();
    const view = figure.locator('.view');
    await figure.locator('input[type=range]').fill('8');
    await expect.poll(() => stat(view, 'pairs')).toBe('28');
  });

  test('game chapter: the pointer moves the ray and the queries, the eye can be dragged', async () => {
    const figure = page.locator('#game figure');
    const view = figure.locator('.view');
    const out = view.locator('.live-output');
    const canvas = view.locator('canvas.sim');
    await figure.locator('[data-action=play]').click(); // paused: only the pointer changes what is shown
    await canvas.scrollIntoViewIfNeeded(); // the figure is taller than the window: the canvas must be on screen
    const box = (await canvas.boundingBox())!;
    const at = (x: number, y: number): Promise<void> => page.mouse.move(box.x + (x * box.width) / 600, box.y + (y * box.height) / 390);
    const hitDistances = async (): Promise<number[]> =>
      [...((await out.textContent()) ?? '').matchAll(/^ {2}\d+ +([\d.]+) /gm)].map((m) => Number(m[1]));
    await at(7.5, 7.5); // the top-left wall block
    await expect.poll(() => out.getAttribute('data-point')).toBe('wall (0, 0)');
    const corner = { text: await out.textContent(), pixels: (await pixels(canvas)).hash };
    expect(Number(await out.getAttribute('data-ray-hits'))).toBeGreaterThan(0);
    expect(Number(await out.getAttribute('data-query-hits'))).toBeGreaterThan(0);
    await at(52.5, 52.5); // the block at column 3, row 3
    await expect.poll(() => out.getAttribute('data-point')).toBe('wall (3, 3)');
    expect(await out.textContent()).not.toBe(corner.text);
    expect((await pixels(canvas)).hash).not.toBe(corner.pixels);
    const distances = await hitDistances();
    expect(distances.length).toBeGreaterThan(0);
    expect(distances).toEqual([...distances].sort((p, q) => p - q)); // nearest first
    // the gun's first hit (walls block it) and the ball nearest to the eye, named in the output
    expect(await out.getAttribute('data-shot')).toMatch(/^(wall|door|red|blue) /);
    expect(await out.getAttribute('data-nearest')).toMatch(/^(red|blue) \d+$/);
    // drag the eye (ball 0 of the view): the ray starts from where it is dropped
    expect(await out.textContent()).toContain('castRay from (300, 60)');
    await drag(await ballAt(view, 0), { x: box.x + (450 * box.width) / 600, y: box.y + (200 * box.height) / 390 });
    await expect.poll(() => out.textContent()).toMatch(/castRay from \((449|450|451), (199|200|201)\)/);
    await figure.locator('[data-action=play]').click();
    expect(await figure.getAttribute('data-state')).toBe('playing');
  });

  test('game chapter: 250 static boxes, rebuilt only on the frames the door moves', async () => {
    const figure = page.locator('#game figure');
    const view = figure.locator('.view');
    const door = view.locator('.event-summary');
    await figure.scrollIntoViewIfNeeded();
    await expect.poll(async () => Number(await stat(view, 'frame'))).toBeGreaterThan(0);
    expect(await stat(view, 'staticBoxes')).toBe('250');
    // the door moves for 30 frames at a time: within 40 steps there are still frames
    const seen = new Set<string>();
    for (let k = 0; k < 40 && (k < 8 || !(seen.has('closed') || seen.has('open'))); k++) {
      await figure.locator('[data-action=step]').click(); // one frame, stats shown at once
      const state = (await door.getAttribute('data-door'))!;
      seen.add(state);
      const moving = state === 'opening' || state === 'closing';
      expect(await stat(view, 'staticRebuilt'), `door ${state}`).toBe(moving ? '1' : '0');
      expect(await stat(view, 'staticBoxes')).toBe('250');
    }
    expect(seen.has('closed') || seen.has('open')).toBe(true);
    await figure.locator('[data-action=play]').click();
  });

  test('the benchmark runs a small N and draws its chart', async () => {
    const figure = page.locator('#benchmark figure');
    await figure.scrollIntoViewIfNeeded();
    expect(await figure.getAttribute('data-state')).toBe('paused'); // it waits for the reader
    await figure.locator('select').selectOption('1000');
    const canvas = figure.locator('canvas.sim');
    const empty = await pixels(canvas);
    await figure.locator('[data-action=play]').click();
    await page.waitForSelector('#benchmark table[data-done=true]', { timeout: 60_000 });
    const rows = await figure.locator('tbody tr').allInnerTexts();
    expect(rows.map((r) => r.split('\t')[0])).toEqual(['100', '300', '1,000']);
    for (const r of rows) {
      const [, naive, sorted, wasm, , pairs] = r.split('\t');
      for (const ms of [naive, sorted, wasm]) expect(Number(ms)).toBeGreaterThanOrEqual(0);
      expect(pairs).toMatch(/^[\d,]+ ✓$/);
    }
    expect((await pixels(canvas)).hash).not.toBe(empty.hash);
    expect(errors).toEqual([]);
  });

  test('prefers-reduced-motion starts every demo paused', async () => {
    const p = await context!.newPage();
    await p.emulateMedia({ reducedMotion: 'reduce' });
    await p.goto(url);
    await p.waitForSelector('html[data-ready=true]');
    const states = await p.locator('figure.demo').evaluateAll((fs) => fs.map((f) => (f as HTMLElement).dataset.state));
    expect(new Set(states)).toEqual(new Set(['paused']));
    expect(await p.locator('.motion-note').isVisible()).toBe(true);
    await p.close();
  });
});

test('the static build contains the page and its assets', async () => {
  const out = mkdtempSync(join(tmpdir(), 'demo-dist-'));
  try {
    const build = spawn(vite, ['build', '--config', config, '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], { cwd: root });
    let log = '';
    build.stderr.on('data', (d) => (log += d));
    const code = await new Promise<number | null>((resolve) => build.on('exit', resolve));
    expect(code, log).toBe(0);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('Sort, sweep and prune');
    const assets = readdirSync(join(out, 'assets'));
    expect(assets.some((f) => f.endsWith('.js'))).toBe(true);
    expect(assets.some((f) => f.endsWith('.css'))).toBe(true);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
