// The demo page in real Chromium (Debian's /usr/bin/chromium driven by playwright-core), served by the Vite dev
// server: it loads cleanly, every chapter is built, draws and animates when near the screen, dragging and the
// keyboard change the live output, counters advance, pause and step work, the benchmark runs, reduced motion is
// respected, the static build works; and on a phone (390 x 844 at DPR 3, touch) the page fits the screen, its
// canvases stay small and their labels legible, and its state colours keep their contrast.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  DESKTOP,
  PHONE,
  config,
  demoPages,
  frames,
  mounted,
  pixels,
  root,
  scrolledStill,
  stat,
  vite,
} from './demo-page';

const { log, open, close, url } = demoPages();
/** Console errors of the pages, and every URL they asked for, in order (the wasm modules among them). */
const { errors, requests } = log;
let page: Page;

beforeAll(async () => {
  page = await open(DESKTOP);
});

/** Ball i of a view, in client coordinates. */
async function ballAt(view: Locator, i: number): Promise<{ x: number; y: number; r: number }> {
  await mounted(view);
  const canvas = view.locator('canvas.sim');
  // a figure taller than the window may leave its canvas partly out of sight: bring the canvas itself in
  const seen = await canvas.evaluate((c) => {
    const r = c.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight;
  });
  if (!seen) {
    await canvas.evaluate((c) => c.scrollIntoView({ block: 'center', behavior: 'instant' }));
    await scrolled();
  }
  const box = (await canvas.boundingBox())!;
  const [x, y, r] = (await view.getAttribute('data-positions'))!.split(' ')[i]!.split(',').map(Number) as [
    number,
    number,
    number,
  ];
  const s = box.width / 600;
  return { x: box.x + x * s, y: box.y + y * s, r: r * s };
}

/** Wait until the page stands still (smooth scrolling from an earlier scrollIntoView has finished). */
const scrolled = (): Promise<void> => scrolledStill(page);

async function drag(from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let k = 1; k <= 8; k++)
    await page.mouse.move(from.x + ((to.x - from.x) * k) / 8, from.y + ((to.y - from.y) * k) / 8);
  await page.mouse.up();
}

/**
 * Pause the slab view's figure on a frame the engine cut into more than one slab: 150 moving balls usually are, but
 * a frame may have one, and a busy machine runs frames between a poll and a click.
 */
async function pauseOnSlabs(figure: Locator): Promise<void> {
  const slabs = figure.locator('.slab-readout');
  for (let tries = 0; ; tries++) {
    if ((await figure.getAttribute('data-state')) === 'playing') await figure.locator('[data-action=play]').click();
    if (Number(await slabs.getAttribute('data-slabs')) > 1) return;
    expect(tries, 'frames with more than one slab').toBeLessThan(40);
    await figure.locator('[data-action=play]').click();
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
describe('demo page in Chromium', () => {
  test('loads every chapter with no console error', async () => {
    // the chapters are the table of contents' entries: each links to a section that has a figure
    const sections = page.locator('main section');
    const toc = await page.locator('nav ol.toc a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    const ids = await sections.evaluateAll((list) => list.map((e) => `#${e.id}`));
    expect(toc.length).toBeGreaterThan(10);
    expect(ids).toEqual(toc);
    for (const s of await sections.all()) expect(await s.locator('figure.demo canvas.sim').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  test('canvases are drawn at their CSS size times devicePixelRatio', async () => {
    const canvas = page.locator('#sim canvas.sim');
    await mounted(page.locator('#sim figure'));
    const css = (await canvas.boundingBox())!;
    const first = await pixels(canvas);
    expect(first.width).toBe(Math.round(css.width * 2));
    expect(first.colours).toBeGreaterThan(2);
  });

  test('each chapter draws and animates when scrolled into view, and only then', async () => {
    const figures = page.locator('figure.demo:not(.bench)');
    const count = await figures.count();
    const last = figures
      .nth(count - 1)
      .locator('.view')
      .first();
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await page.waitForTimeout(300);
    const offscreen = await frames(last);
    // nothing is built far from the screen: the last figure has no scene and no backing store yet
    expect(await figures.nth(count - 1).getAttribute('data-mounted')).toBe('false');
    expect(await last.locator('canvas.sim').evaluate((c: HTMLCanvasElement) => c.width * c.height)).toBe(0);
    for (let i = 0; i < count; i++) {
      const figure = figures.nth(i);
      await figure.scrollIntoViewIfNeeded();
      await mounted(figure);
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
        else
          await expect.poll(async () => (await pixels(canvas)).hash, { message: `${label} animates` }).not.toBe(a.hash);
        expect((await pixels(canvas)).colours, `${label} draws`).toBeGreaterThan(2);
      }
    }
    // the last figure did not run while the reader was at the top of the page
    expect(offscreen).toBe(0);
    expect(errors).toEqual([]);
  }, 150_000);

  test('dragging in the transitivity demo changes the live output', async () => {
    const view = page.locator('#transitivity .view');
    await view.scrollIntoViewIfNeeded();
    const out = view.locator('.live-output');
    const before = await out.textContent();
    expect(await out.getAttribute('data-verdict')).toBe('skip');
    const a = await ballAt(view, 0);
    const b = await ballAt(view, 1);
    const canvas = view.locator('canvas.sim');
    const touchAction = (): Promise<string> => canvas.evaluate((c) => getComputedStyle(c).touchAction);
    expect(await touchAction()).toBe('pan-y'); // a swipe over the figure scrolls the page
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    expect(await touchAction()).toBe('none'); // but not while a ball is held
    await page.mouse.up();
    expect(await touchAction()).toBe('pan-y');
    await drag(a, { x: b.x - b.r * 0.2, y: a.y });
    await expect.poll(() => out.getAttribute('data-ab')).toBe('true');
    expect(await out.textContent()).not.toBe(before);
  });

  test('chapter 7: Step moves the sweep line to the next edge of the strip, and the set shows as chips', async () => {
    const figure = page.locator('#sweep figure').first();
    const view = figure.locator('.view');
    await figure.scrollIntoViewIfNeeded();
    await mounted(view);
    const strip = view.locator('.strip');
    const at = async (): Promise<number> => {
      const order = (await strip.getAttribute('data-order'))!.split(',');
      return order.indexOf((await strip.getAttribute('data-marked'))!);
    };
    // step until the line stands on an edge, then every Step is the next edge
    await figure.locator('[data-action=play]').click(); // paused: only Step moves the line
    await figure.locator('[data-action=step]').click();
    for (let k = 0; k < 40 && (await at()) < 0; k++) await figure.locator('[data-action=step]').click();
    let i = await at();
    expect(i).toBeGreaterThanOrEqual(0);
    for (let k = 0; k < 4 && i < 9; k++) {
      await figure.locator('[data-action=step]').click();
      expect(await at()).toBe(i + 1);
      i++;
    }
    const chips = await view.locator('.chips li:not(.empty)').allTextContents();
    expect(chips.every((c) => /^[A-E]$/.test(c))).toBe(true);
    await figure.locator('[data-action=play]').click();
  });

  test('chapter 3: dragging a ball into each order changes the drawn verdict; nothing to step or slow down', async () => {
    const figure = page.locator('#transitivity figure');
    const view = figure.locator('.view');
    await figure.scrollIntoViewIfNeeded();
    await scrolled();
    await figure.locator('[data-action=restart]').click();
    await mounted(view);
    const canvas = view.locator('canvas.sim');
    expect(await figure.locator('[data-action=step], [data-action=slow]').count()).toBe(0);
    await expect.poll(() => canvas.getAttribute('data-verdict')).toBe('skip');
    // logical canvas units to client coordinates, measured now: focusing the canvas may scroll the page
    const at = async (x: number, y: number): Promise<{ x: number; y: number }> => {
      const box = (await canvas.boundingBox())!;
      const s = box.width / 600;
      return { x: box.x + x * s, y: box.y + y * s };
    };
    const logical = async (i: number): Promise<[number, number, number]> =>
      (await view.getAttribute('data-positions'))!.split(' ')[i]!.split(',').map(Number) as [number, number, number];
    // A into B's interval: sorted, and A reaches past B.left
    const [bx, , br] = await logical(1);
    await drag(await ballAt(view, 0), await at(bx - br * 0.5 - 50, 340));
    await expect.poll(() => canvas.getAttribute('data-verdict')).toBe('test');
    // A to the right of C: no longer in A, B, C order
    const [cx, , cr] = await logical(2);
    await drag(await ballAt(view, 0), await at(Math.min(540, cx + cr + 55), 60));
    await expect.poll(() => canvas.getAttribute('data-verdict')).toBe('unsorted');
    // A back to the far left, short of B: the deduction holds again
    await drag(await ballAt(view, 0), await at(60, 330));
    await expect.poll(() => canvas.getAttribute('data-verdict')).toBe('skip');
    // the panel follows within its refresh interval
    await expect.poll(() => view.locator('.live-output').getAttribute('data-verdict')).toBe('skip');
  });

  test('chapter 6: the span of a picked ball misses a wider ball that covers it on x, and the figure says so', async () => {
    const figure = page.locator('#edges figure').nth(1);
    const view = figure.locator('.view');
    const canvas = view.locator('canvas.sim');
    await figure.scrollIntoViewIfNeeded();
    await scrolled();
    await figure.locator('[data-action=restart]').click();
    await mounted(view);
    const positions = async (): Promise<number[][]> =>
      (await view.getAttribute('data-positions'))!.split(' ').map((q) => q.split(',').map(Number));
    const start = await positions();
    const radii = start.map((b) => b[2]!);
    const small = radii.indexOf(Math.min(...radii));
    const large = radii.indexOf(Math.max(...radii));
    await expect.poll(() => canvas.getAttribute('data-focus')).toBe(String(large)); // the largest, to begin with
    const s = await ballAt(view, small);
    await page.mouse.click(s.x, s.y); // a click picks the small ball
    await expect.poll(() => canvas.getAttribute('data-focus')).toBe(String(small));
    // the large ball dragged over it on x (away on y): it covers the small one's span
    const l = await ballAt(view, large);
    const box = (await canvas.boundingBox())!;
    const y = start[small]![1]! > 200 ? box.y + 80 * (box.width / 600) : box.y + 320 * (box.width / 600);
    await drag(l, { x: s.x, y });
    await expect.poll(() => canvas.getAttribute('data-focus')).toBe(String(small)); // a drag does not pick
    // the oracle: the balls whose x span holds the small ball's with both edges outside it
    const now = await positions();
    const [sx, , sr] = now[small]!;
    const covering = now.flatMap(([x, , r], i) =>
      i !== small && x! - r! < sx! - sr! && x! + r! > sx! + sr! ? [i] : [],
    );
    expect(covering).toContain(large);
    await expect.poll(() => canvas.getAttribute('data-missed')).toBe(covering.join(','));
    expect(await view.locator('.panel [aria-live=polite]').textContent()).toMatch(/missed by the span/);
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

  test('a ball released while moving is thrown: it keeps the pointer’s velocity', async () => {
    const figure = page.locator('#sim figure');
    const view = figure.locator('.view');
    const canvas = view.locator('canvas.sim');
    await figure.scrollIntoViewIfNeeded();
    // the page's own record of the pointer: a release 100 ms or more after the last move rightly drops the ball
    type Logged = { pointerLog: { type: string; t: number }[] };
    await canvas.evaluate((c) => {
      const log: Logged['pointerLog'] = [];
      (window as unknown as Logged).pointerLog = log;
      for (const type of ['pointermove', 'pointerup'])
        c.addEventListener(type, (e) => log.push({ type, t: e.timeStamp }), { capture: true });
    });
    // a busy machine may run frames between reading a moving ball's place and pressing on it, or pause between the
    // last move and the release: such a try is taken again, up to five times
    for (let tries = 0; ; tries++) {
      expect(tries, 'tries with the ball grabbed and released within 100 ms of the last move').toBeLessThan(5);
      await figure.locator('[data-action=restart]').click();
      await mounted(view);
      const xs = (await view.getAttribute('data-positions'))!.split(' ').map((q) => Number(q.split(',')[0]));
      const i = xs.indexOf(Math.min(...xs));
      const from = await ballAt(view, i);
      const box = (await canvas.boundingBox())!;
      const s = box.width / 600;
      await page.evaluate(() => (window as unknown as Logged).pointerLog.splice(0));
      await drag(from, { x: box.x + 250 * s, y: from.y });
      // the next frames: the ball flies on to the right (up to 40 units per step), instead of dropping where released
      const after = await view.evaluate(
        (v, k) =>
          new Promise<number[]>((resolve) => {
            const seen: number[] = [];
            const take = (): void => {
              seen.push(Number((v as HTMLElement).dataset.positions!.split(' ')[k]!.split(',')[0]));
              if (seen.length < 6) requestAnimationFrame(take);
              else resolve(seen);
            };
            requestAnimationFrame(take);
          }),
        i,
      );
      const log = await page.evaluate(() => (window as unknown as Logged).pointerLog);
      const up = log.filter((e) => e.type === 'pointerup').at(-1)?.t ?? Infinity;
      const move = log.filter((e) => e.type === 'pointermove').at(-1)?.t ?? -Infinity;
      const grabbed = Math.max(...after) > 200; // the leftmost ball gets this far so soon only when carried
      if (!grabbed || up - move >= 100) continue;
      expect(Math.max(...after)).toBeGreaterThan(250 + 20);
      return;
    }
  });

  test('slow motion runs at a quarter of the speed', async () => {
    const figure = page.locator('#sim figure');
    const view = figure.locator('.view');
    await figure.scrollIntoViewIfNeeded();
    await mounted(view);
    const rate = async (): Promise<number> => {
      const [f0, t0] = [await frames(view), await page.evaluate(() => performance.now())];
      await page.waitForTimeout(900);
      const [f1, t1] = [await frames(view), await page.evaluate(() => performance.now())];
      return ((f1 - f0) * 1000) / (t1 - t0);
    };
    const normal = await rate();
    await figure.locator('[data-action=slow]').click();
    const slow = await rate();
    await figure.locator('[data-action=slow]').click();
    // never faster than a quarter of 60 frames per second, and a quarter of the normal rate give or take
    expect(slow).toBeLessThan(15 * 1.2);
    expect(slow / normal).toBeGreaterThan(0.25 / 1.6);
    expect(slow / normal).toBeLessThan(0.25 * 1.6);
  });

  test('counters advance', async () => {
    const view = page.locator('#naive .view').first();
    await view.scrollIntoViewIfNeeded();
    await mounted(view);
    const f0 = Number(await stat(view, 'frame'));
    await expect.poll(async () => Number(await stat(view, 'frame'))).toBeGreaterThan(f0);
    await expect.poll(async () => Number(await stat(view, 'tested'))).toBeGreaterThan(0);
    expect(await stat(view, 'pairs')).toBe('10');
  });

  test('pause stops a demo and step advances it one beat', async () => {
    const figure = page.locator('#naive figure').first();
    const view = figure.locator('.view');
    await figure.scrollIntoViewIfNeeded();
    const play = figure.locator('[data-action=play]');
    expect(await play.getAttribute('aria-pressed')).toBe('true');
    await play.click();
    expect(await figure.getAttribute('data-state')).toBe('paused');
    // a toggle with a fixed name: only aria-pressed says whether it is on
    expect(await play.getAttribute('aria-pressed')).toBe('false');
    expect(await play.evaluate((b) => b.textContent!.replace(/[^A-Za-z]/g, ''))).toBe('Play');
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
    await mounted(figure);
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
    await mounted(figure);
    const box = (await canvas.boundingBox())!;
    const at = (x: number, y: number): Promise<void> =>
      page.mouse.move(box.x + (x * box.width) / 600, box.y + (y * box.height) / 390);
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
    const eye = await ballAt(view, 0); // may scroll the canvas into sight: measure it again for the drop
    const now = (await canvas.boundingBox())!;
    await drag(eye, { x: now.x + (450 * now.width) / 600, y: now.y + (200 * now.height) / 390 });
    await expect.poll(() => out.textContent()).toMatch(/castRay from \((449|450|451), (199|200|201)\)/);
    await figure.locator('[data-action=play]').click();
    expect(await figure.getAttribute('data-state')).toBe('playing');
  });

  test('game chapter: 250 static boxes, rebuilt only on the frames the door moves', async () => {
    const figure = page.locator('#game figure');
    const view = figure.locator('.view');
    const door = view.locator('.event-summary');
    await figure.scrollIntoViewIfNeeded();
    if ((await figure.getAttribute('data-state')) !== 'playing') await figure.locator('[data-action=play]').click();
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
    await mounted(figure);
    await figure.locator('select[data-option=max]').selectOption('1000');
    const canvas = figure.locator('canvas.sim');
    const empty = await pixels(canvas);
    await figure.locator('[data-action=play]').click();
    await page.waitForSelector('#benchmark table[data-done=true]', { timeout: 60_000 });
    const rows = await figure.locator('tbody tr').allInnerTexts();
    expect(rows.map((r) => r.split('\t')[0])).toEqual(['100', '300', '1,000']);
    for (const r of rows) {
      const [, naive, sorted, swaps, wasm, , pairs] = r.split('\t');
      // each time is the median of the rounds, the fastest and the slowest round under it
      for (const ms of [naive, sorted, swaps, wasm]) {
        const [median, spread] = ms!.split('\n');
        const [lo, hi] = spread!.split('–').map(Number);
        expect(lo).toBeLessThanOrEqual(Number(median));
        expect(Number(median)).toBeLessThanOrEqual(hi!);
      }
      expect(pairs).toMatch(/^[\d,]+ ✓$/);
    }
    expect((await pixels(canvas)).hash).not.toBe(empty.hash);
    expect(errors).toEqual([]);
  });

  test('cross-origin isolated: the threaded engine is fetched only for Threads = 2, and gets the same pairs', async () => {
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true); // the dev server sends COOP and COEP
    const threaded = (): string[] => requests.filter((r) => r.includes('sweep_prune_threads'));
    // the page and a benchmark on one thread (the test before this one) load no threaded module
    expect(requests.some((r) => r.includes('/workers/benchmark'))).toBe(true);
    expect(threaded()).toEqual([]);
    const figure = page.locator('#benchmark figure');
    await figure.scrollIntoViewIfNeeded();
    await mounted(figure);
    await figure.locator('select[data-option=max]').selectOption('1000');
    await figure.locator('select[data-option=threads]').selectOption('2');
    await expect.poll(() => page.locator('#benchmark table[data-done=true]').count()).toBe(0);
    if ((await figure.getAttribute('data-state')) === 'paused') await figure.locator('[data-action=play]').click();
    await page.waitForSelector('#benchmark table[data-done=true]', { timeout: 140_000 }); // threads that spin, on a busy machine
    const rows = await figure.locator('tbody tr').allInnerTexts();
    expect(rows.map((r) => r.split('\t')[0])).toEqual(['100', '300', '1,000']);
    for (const r of rows) expect(r.split('\t')[6]).toMatch(/^[\d,]+ ✓$/);
    // the worker's engine shares its updates with one more thread, from the module fetched now
    expect(await figure.locator('canvas.sim').getAttribute('data-engine-threads')).toBe('2');
    expect(threaded().length).toBeGreaterThanOrEqual(1);
    expect(errors).toEqual([]);
    await figure.locator('select[data-option=threads]').selectOption('1');
  }, 150_000);

  test('side-by-side views run in lock step: same frame, same balls, at every sampled moment', async () => {
    for (const id of ['compare-1', 'compare-2', 'sorting']) {
      const figure = page.locator(`#${id} figure`);
      await figure.scrollIntoViewIfNeeded();
      await mounted(figure);
      const sample = (): Promise<Array<{ frame: string; positions: string }>> =>
        figure.locator('.view').evaluateAll((vs) =>
          vs.map((v) => ({
            frame: (v as HTMLElement).dataset.frame!,
            positions: (v as HTMLElement).dataset.positions!,
          })),
        );
      const seen = new Set<string>();
      // at least 8 samples, and on until the frame has advanced (a slowed-down sort takes a while per frame)
      for (let k = 0; k < 8 || (seen.size < 2 && k < 40); k++) {
        const views = await sample();
        expect(views.length, id).toBeGreaterThan(1);
        for (const v of views) expect(v, `${id} sample ${k}`).toEqual(views[0]);
        seen.add(views[0]!.frame);
        await page.waitForTimeout(100);
      }
      expect(seen.size, `${id} advances`).toBeGreaterThan(1);
      // the counters name their timescale, and the last complete pass is shown beside a running mean
      const labels = await figure.locator('.view').first().locator('dl.stats dt').allTextContents();
      expect(labels.join('|'), id).toMatch(/last (pass|sort|update)/);
    }
    // the slower view sets the pace: all pairs tests more, so the sorted view waits for it
    const figure = page.locator('#compare-1 figure');
    await expect.poll(async () => Number(await stat(figure.locator('.view').first(), 'mean'))).toBeGreaterThan(0);
    const [all, sorted] = await Promise.all([
      stat(figure.locator('.view').first(), 'mean'),
      stat(figure.locator('.view').nth(1), 'mean'),
    ]);
    expect(Number(all)).toBeGreaterThanOrEqual(Number(sorted));
  });

  test('chapters 5 and 9: each count the slider settles at becomes a chart point, the views’ own means per pass', async () => {
    for (const id of ['compare-1', 'compare-2']) {
      const figure = page.locator(`#${id} figure`);
      await figure.scrollIntoViewIfNeeded();
      await mounted(figure);
      const slider = figure.locator('.controls input[type=range]');
      const read = (): Promise<{ points: Array<[number, number[]]>; means: string[]; frames: string[] }> =>
        figure.evaluate((f) => ({
          points: JSON.parse((f.querySelector('.growth canvas') as HTMLElement).dataset.points ?? '[]'),
          means: [...f.querySelectorAll('.view [data-stat=mean] dd')].map((d) => d.textContent!),
          frames: [...f.querySelectorAll('.view [data-stat=frame] dd')].map((d) => d.textContent!),
        }));
      for (const n of [4, 9, 13]) {
        await slider.fill(String(n)); // input, then change: the slider settles at n
        await expect.poll(async () => Number((await read()).frames[0]), { timeout: 20_000 }).toBeGreaterThan(4);
        // the chart's point for n and the counters, read at one moment: the same means
        const { points, means } = await read();
        const point = points.find(([count]) => count === n);
        expect(point, `${id}: a point for ${n} balls`).toBeDefined();
        expect(
          point![1].map((m) => m.toFixed(1)),
          `${id} at ${n} balls`,
        ).toEqual(means);
      }
      const counts = (await read()).points.map(([count]) => count);
      expect(counts).toEqual(expect.arrayContaining([4, 9, 13]));
    }
  });

  test('chapter 9: Stack in a column makes 1D sweep and prune test every pair, Spread out makes it test few', async () => {
    const figure = page.locator('#compare-2 figure');
    await figure.scrollIntoViewIfNeeded();
    await mounted(figure);
    await figure.locator('.controls input[type=range]').fill('8');
    const views = figure.locator('.view');
    const tested = (): Promise<number[]> =>
      figure.locator('.view [data-stat=tested] dd').evaluateAll((ds) => ds.map((d) => Number(d.textContent)));
    await figure.locator('[data-action=column]').click();
    const xs = (await views.first().getAttribute('data-positions'))!.split(' ').map((q) => Number(q.split(',')[0]));
    expect(new Set(xs).size).toBe(1); // one column
    await expect.poll(async () => Number(await stat(views.first(), 'frame')), { timeout: 20_000 }).toBeGreaterThan(2);
    const [all, oneD, twoD] = await tested();
    expect(all).toBe((8 * 7) / 2);
    expect(oneD).toBe((8 * 7) / 2); // every pair overlaps on x
    expect(twoD).toBeLessThan(oneD!);
    await figure.locator('[data-action=spread]').click();
    await expect.poll(async () => Number(await stat(views.first(), 'frame')), { timeout: 20_000 }).toBeGreaterThan(2);
    expect((await tested())[1]).toBeLessThan((8 * 7) / 2);
  });

  test('side-by-side views show one frame counter: it agrees across the views in every sample', async () => {
    for (const id of ['compare-1', 'compare-2']) {
      const figure = page.locator(`#${id} figure`);
      await figure.scrollIntoViewIfNeeded();
      await mounted(figure);
      const seen = new Set<string>();
      for (let k = 0; k < 60; k++) {
        const shown = await figure.locator('.view [data-stat=frame] dd').allTextContents();
        expect(new Set(shown).size, `${id} sample ${k}: ${shown.join(' | ')}`).toBe(1);
        seen.add(shown[0]!);
        await page.waitForTimeout(20 + ((k * 37) % 50));
      }
      expect(seen.size, `${id} advances`).toBeGreaterThan(1);
    }
  });

  test('held comparisons agree when shown: the sweep against the engine, the JS swaps against the engine', async () => {
    const sweep = page.locator('#sweep figure').nth(1).locator('.view');
    await sweep.scrollIntoViewIfNeeded();
    await mounted(sweep);
    await expect.poll(() => stat(sweep, 'held'), { timeout: 20_000 }).toMatch(/^\d+ [=≠] \d+$/);
    const [r, op, e] = (await stat(sweep, 'held')).split(' ');
    expect(op).toBe('=');
    expect(r).toBe(e);
    const swaps = page.locator('#swaps figure').nth(1).locator('.view');
    await swaps.scrollIntoViewIfNeeded();
    await mounted(swaps);
    const summary = swaps.locator('.event-summary');
    await expect.poll(() => summary.getAttribute('data-held'), { timeout: 10_000 }).toMatch(/=/);
    for (let k = 0; k < 5; k++) {
      const [js, engine] = (await summary.getAttribute('data-held'))!.split('=');
      expect(js).toBe(engine);
      await page.waitForTimeout(150);
    }
  });

  test('the scale canvas moves 100 000 boxes: the engine’s pairs, and the magnifier’s equal a brute-force count', async () => {
    const figure = page.locator('#scale figure');
    await figure.scrollIntoViewIfNeeded();
    await mounted(figure);
    const out = figure.locator('.scale-readout');
    const toggle = figure.locator('[data-action=js]');
    await figure.locator('.scale-n input[type=range]').fill('100000');
    await expect.poll(() => out.getAttribute('data-boxes'), { timeout: 30_000 }).toBe('100000');
    await expect
      .poll(async () => Number(await out.getAttribute('data-update-ms')), { timeout: 30_000 })
      .toBeGreaterThan(0);
    const read = (): Promise<DOMStringMap> => out.evaluate((e) => ({ ...(e as HTMLElement).dataset }));
    const d = await read();
    // the pairs drawn are the engine's pair list; its length is the engine's own count (2.2 per box)
    expect(Number(d.pairs)).toBe(Number(d.enginePairs));
    expect(Number(d.pairs) / 100_000).toBeGreaterThan(1.5);
    expect(Number(d.pairs) / 100_000).toBeLessThan(3);
    // the readout says how the drawing compares with the update, as measured
    const said = (await out.textContent())!.match(
      /: ([\d.]+) ms(?: \([\d.]+–[\d.]+\))? per update .* drawing ([\d.]+) ms, ([\d.]+) times the update/,
    );
    expect(said).not.toBeNull();
    const [, update, draw, ratio] = said!.map(Number) as [number, number, number, number];
    expect(Math.abs(ratio - draw / update)).toBeLessThan(0.05 + 0.1 * ratio);
    /** The magnifier's box, its pairs as the page drew them, and the brute-force pairs over the page's boxes. */
    const lens = (): Promise<{ chosen: number; drawn: number[]; brute: number[]; candidates: number }> =>
      out.evaluate((e) => {
        const s = (
          e as HTMLElement & {
            lens: { boxes: Float32Array; chosen: number; chosenPairs: number[]; candidates: number };
          }
        ).lens;
        const b = s.boxes;
        const c = s.chosen;
        const brute: number[] = [];
        for (let j = 0; j < b.length / 4; j++) {
          if (j === c) continue;
          if (
            b[4 * j]! <= b[4 * c + 2]! &&
            b[4 * c]! <= b[4 * j + 2]! &&
            b[4 * j + 1]! <= b[4 * c + 3]! &&
            b[4 * c + 1]! <= b[4 * j + 3]!
          )
            brute.push(j);
        }
        return { chosen: c, drawn: [...s.chosenPairs].sort((p, q) => p - q), brute, candidates: s.candidates };
      });
    await expect.poll(async () => (await lens()).chosen).toBeGreaterThanOrEqual(0);
    for (let k = 0; k < 3; k++) {
      const l = await lens();
      expect(l.drawn).toEqual(l.brute);
      expect(l.candidates).toBeGreaterThanOrEqual(l.drawn.length);
      await page.waitForTimeout(150);
    }
    // the same boxes on the sorted-JS loop: slower updates, the same pairs, and a button that says how to go back
    expect(await toggle.textContent()).toBe('Use the sorted-JS loop instead');
    await toggle.click();
    expect(await toggle.textContent()).toBe('Give the boxes back to the engine');
    await expect.poll(() => out.getAttribute('data-mode')).toBe('js');
    await expect
      .poll(async () => Number(await out.getAttribute('data-update-ms')), { timeout: 30_000 })
      .toBeGreaterThan(Number(d.updateMs));
    const js = await lens();
    expect(js.drawn).toEqual(js.brute);
    // the sorted-JS loop compares a box with every box overlapping it on x: more than the engine's slab does
    expect(js.candidates).toBeGreaterThan(js.drawn.length);
    await toggle.click();
    await figure.locator('.scale-n input[type=range]').fill('10000'); // leave the page light for the tests after this one
    await expect.poll(() => out.getAttribute('data-boxes')).toBe('10000');
    expect(await pixels(figure.locator('canvas.sim')).then((p) => p.colours)).toBeGreaterThanOrEqual(3);
  }, 120_000);

  test('the slab view draws the engine’s slabs: its numbers are the engine’s, and Jump rebuilds them', async () => {
    const figure = page.locator('#prune figure').nth(2);
    await figure.scrollIntoViewIfNeeded();
    await mounted(figure);
    const out = figure.locator('.slab-readout');
    await expect.poll(() => out.getAttribute('data-slabs')).toMatch(/^\d+$/);
    await pauseOnSlabs(figure); // 150 boxes: more than one slab; paused, so every number below is of one frame
    const d = await out.evaluate((e) => ({ ...(e as HTMLElement).dataset }));
    expect(Number(d.slabs)).toBeGreaterThan(1);
    expect(d.slabs).toBe(d.engineSlabs);
    expect(d.sweepAxis).toBe(d.engineSweepAxis);
    expect(['0', '1']).toContain(d.sweepAxis);
    const view = figure.locator('.view');
    expect(await stat(view, 'slabs')).toBe(d.engineSlabs);
    const rebuilt = d.rebuilt;
    await figure.locator('[data-action=play]').click();
    await figure.locator('[data-action=scatter]').click();
    await expect.poll(() => out.getAttribute('data-rebuilt')).not.toBe(rebuilt);
    // the party with 25 balls: one slab, said plainly
    const party = page.locator('#party figure');
    await party.scrollIntoViewIfNeeded();
    await mounted(party);
    await expect.poll(() => party.locator('.slab-readout').getAttribute('data-slabs')).toBe('1');
    expect(await party.locator('.slab-readout').textContent()).toContain(
      'one slab (below 64 boxes the engine keeps one)',
    );
  });

  test('linked views: a hovered ball marks its edges and bars, an edge lights its ball, a key links the ball it selects', async () => {
    const figure = page.locator('#sim figure');
    const view = figure.locator('.view');
    await figure.scrollIntoViewIfNeeded();
    await scrolled();
    await figure.locator('[data-action=restart]').click();
    await mounted(view);
    if ((await figure.getAttribute('data-state')) === 'playing') await figure.locator('[data-action=play]').click();
    const axis = view.locator('canvas.axis');
    const balls = (await view.getAttribute('data-positions'))!.split(' ').map((q) => q.split(',').map(Number));
    /** Where ball k's "(" and ")" stand in the sorted list of every ball's edges on an axis (mins first at ties). */
    const places = (k: number, a: number): string => {
      const edges = balls.flatMap(([x, y, r], i) => [
        [(a ? y! : x!) - r!, i, 0],
        [(a ? y! : x!) + r!, i, 1],
      ]);
      edges.sort((p, q) => p[0]! - q[0]! || p[2]! - q[2]!);
      return edges.flatMap((e, i) => (e[1] === k ? [i] : [])).join(',');
    };
    for (const k of [0, 3]) {
      const b = await ballAt(view, k);
      await page.mouse.move(b.x, b.y);
      await expect.poll(() => view.getAttribute('data-linked')).toBe(String(k));
      await expect.poll(() => axis.getAttribute('data-linked')).toBe(`x:${places(k, 0)} y:${places(k, 1)}`);
    }
    // the reverse: the pointer on an edge in the axis view lights that edge's ball
    const box = (await axis.boundingBox())!;
    const s = box.width / 600;
    const [first] = places(2, 0).split(',').map(Number);
    const cell = (600 - 28 - 8) / (2 * balls.length);
    await page.mouse.move(box.x + (28 + (first! + 0.5) * cell) * s, box.y + 12 * s);
    await expect.poll(() => view.getAttribute('data-linked')).toBe('2');
    await page.mouse.move(0, 0);
    await expect.poll(() => view.getAttribute('data-linked')).toBe('');
    // with the keyboard: the ball a number key selects is linked
    await view.locator('canvas.sim').focus();
    await page.keyboard.press('5');
    await expect.poll(() => axis.getAttribute('data-linked')).toBe(`x:${places(4, 0)} y:${places(4, 1)}`);
    await view.locator('canvas.sim').blur();
    await figure.locator('[data-action=play]').click();
  });

  test('linked views: the sweep’s strip marks a hovered ball’s edges; side-by-side views link the same ball', async () => {
    const figure = page.locator('#sweep figure').first();
    const view = figure.locator('.view');
    await figure.scrollIntoViewIfNeeded();
    await mounted(view);
    const strip = view.locator('.strip');
    // the strip lists a sweep's edges once the first sweep has begun
    if ((await figure.getAttribute('data-state')) === 'paused') await figure.locator('[data-action=play]').click();
    await expect.poll(() => strip.getAttribute('data-order'), { timeout: 10_000 }).toMatch(/\d/);
    await figure.locator('[data-action=play]').click();
    // these balls pass through each other: a ball whose centre no later-drawn ball covers
    const balls = (await view.getAttribute('data-positions'))!.split(' ').map((q) => q.split(',').map(Number));
    const k = balls.findIndex(([x, y], i) =>
      balls.every(([u, v, r], j) => j <= i || Math.hypot(u! - x!, v! - y!) > r! + 4),
    );
    const name = 'ABCDE'[k]!;
    const b = await ballAt(view, k);
    await page.mouse.move(b.x, b.y);
    await expect.poll(() => strip.getAttribute('data-linked')).not.toBe('');
    // the two edges marked are that ball's "(" and ")", as the strip names them
    const marked = strip.locator('span.linked');
    expect(await marked.evaluateAll((gs) => gs.map((g) => (g as HTMLElement).title).sort())).toEqual([
      `left edge of ball ${name}`,
      `right edge of ball ${name}`,
    ]);
    expect((await strip.getAttribute('data-linked'))!.split(',').sort()).toEqual(
      await marked.evaluateAll((gs) => gs.map((g) => (g as HTMLElement).dataset.ref!).sort()),
    );
    // an edge in the strip links its ball: the first edge of the list, whichever ball it belongs to
    const first = strip.locator('span[data-ref]').first();
    const owner = (await first.getAttribute('title'))!.slice(-1);
    await first.hover();
    await expect.poll(() => view.getAttribute('data-linked')).toBe(String('ABCDE'.indexOf(owner)));
    await page.mouse.move(0, 0);
    await figure.locator('[data-action=play]').click();
    // chapter 5: one set of balls, so the ball hovered in one view is linked in the other
    const pair = page.locator('#compare-1 figure');
    await pair.scrollIntoViewIfNeeded();
    await mounted(pair);
    await pair.locator('[data-action=play]').click();
    const left = pair.locator('.view').first();
    const c = await ballAt(left, 2);
    await page.mouse.move(c.x, c.y);
    await expect.poll(() => pair.locator('.view').nth(1).getAttribute('data-linked')).toBe('2');
    await page.mouse.move(0, 0);
    await pair.locator('[data-action=play]').click();
  });

  test('linked views: a hovered ball’s entries in the slab view are the slabs its box reaches into', async () => {
    const figure = page.locator('#prune figure').nth(2);
    const view = figure.locator('.view');
    await figure.scrollIntoViewIfNeeded();
    await mounted(figure);
    if ((await figure.getAttribute('data-state')) === 'playing') await figure.locator('[data-action=play]').click();
    const out = figure.locator('.slab-readout');
    await expect.poll(() => out.getAttribute('data-floors')).toMatch(/,/);
    const d = await out.evaluate((e) => ({ ...(e as HTMLElement).dataset }));
    const floors = d.floors!.split(',').map(Number);
    const across = Number(d.slabAxis);
    const balls = (await view.getAttribute('data-positions'))!.split(' ').map((q) => q.split(',').map(Number));
    /** The slabs a box [lo, hi] reaches into: slab k holds [floors[k], floors[k + 1]). */
    const reached = (lo: number, hi: number): number[] =>
      floors.flatMap((f, k) => (hi >= f && (k + 1 === floors.length || lo < floors[k + 1]!) ? [k] : []));
    // a ball whose edges are clear of every floor (positions are rounded), one that straddles two slabs if any
    const clear = balls
      .map(([x, y, r], i) => ({ i, lo: (across ? y! : x!) - r!, hi: (across ? y! : x!) + r! }))
      .filter((b) => floors.every((f) => Math.abs(b.lo - f) > 1 && Math.abs(b.hi - f) > 1));
    const pick = clear.find((b) => reached(b.lo, b.hi).length > 1) ?? clear[0]!;
    const p = await ballAt(view, pick.i);
    await page.mouse.move(p.x, p.y);
    await expect.poll(() => view.getAttribute('data-linked')).toBe(String(pick.i));
    await expect.poll(() => out.getAttribute('data-linked-slabs')).toBe(reached(pick.lo, pick.hi).join(','));
    await page.mouse.move(0, 0);
    await figure.locator('[data-action=play]').click();
  });

  test('slab view: a chosen ball’s comparisons add up, over every ball, to the engine’s tests; one slab’s to a 1D world’s pairs', async () => {
    const figure = page.locator('#prune figure').nth(2);
    const view = figure.locator('.view');
    await figure.scrollIntoViewIfNeeded();
    await mounted(figure);
    const n = (await view.getAttribute('data-positions'))!.split(' ').length;
    await pauseOnSlabs(figure); // 150 boxes: more than one slab
    const said = figure.locator('.prune-readout');
    const canvas = view.locator('canvas.sim');
    /** Choose every ball in turn with the keyboard and add up the comparisons the page lists for it. */
    const everyBall = async (): Promise<{ sum: number; tests: number; oneSlabTests: string }> => {
      await canvas.focus();
      await page.keyboard.press('1');
      let sum = 0;
      for (let k = 0; k < n; k++) {
        const d = await said.evaluate((e) => ({ ...(e as HTMLElement).dataset }));
        expect(d.ball, `ball ${k}`).toBe(String(k));
        expect(Number(d.pairs)).toBeLessThanOrEqual(Number(d.candidates));
        sum += Number(d.candidates);
        await page.keyboard.press('Space');
      }
      const d = await said.evaluate((e) => ({ ...(e as HTMLElement).dataset }));
      return { sum, tests: Number(d.tests), oneSlabTests: d.oneSlabTests! };
    };
    // each comparison the engine counts involves two boxes: the lists add up to twice its count
    const slabs = await everyBall();
    expect(slabs.tests).toBeGreaterThan(0);
    expect(slabs.sum).toBe(2 * slabs.tests);
    // drawn as one slab: every box overlapping on the sweep axis is compared, the pairs a 1D world finds
    await figure.locator('[data-action=one-slab]').click();
    expect(await figure.locator('[data-action=one-slab]').getAttribute('aria-pressed')).toBe('true');
    const one = await everyBall();
    expect(Number(one.oneSlabTests)).toBeGreaterThan(slabs.tests); // the tests jump
    expect(one.sum).toBe(2 * Number(one.oneSlabTests));
    await figure.locator('[data-action=one-slab]').click();
    await canvas.blur();
    await figure.locator('[data-action=play]').click();
  });

  test('chapter 16: squashing the region flips the engine’s sweep axis from x to y', async () => {
    const figure = page.locator('#next figure').nth(1);
    await figure.scrollIntoViewIfNeeded();
    await mounted(figure);
    const out = figure.locator('.squash-readout');
    const knob = figure.locator('input[data-knob=squash]');
    await knob.fill('-100'); // wide and flat
    await expect.poll(() => out.getAttribute('data-sweep-axis')).toBe('0');
    expect(await out.getAttribute('data-engine-sweep-axis')).toBe('0');
    await knob.fill('100'); // tall and thin
    await expect.poll(() => out.getAttribute('data-sweep-axis')).toBe('1');
    expect(await out.getAttribute('data-engine-sweep-axis')).toBe('1');
  });

  test('prefers-reduced-motion starts every demo paused', async () => {
    const p = await page.context().newPage();
    await p.emulateMedia({ reducedMotion: 'reduce' });
    await p.goto(url());
    await p.waitForSelector('html[data-ready=true]');
    const states = await p.locator('figure.demo').evaluateAll((fs) => fs.map((f) => (f as HTMLElement).dataset.state));
    expect(new Set(states)).toEqual(new Set(['paused']));
    expect(await p.locator('.motion-note').isVisible()).toBe(true);
    await p.close();
  });
});

describe('keyboard only', () => {
  /** Focus a figure's canvas the way a keyboard user does: Tab from the control before it. */
  async function focusCanvas(view: Locator): Promise<Locator> {
    await view.scrollIntoViewIfNeeded();
    await mounted(view);
    const canvas = view.locator('canvas.sim');
    expect(await canvas.getAttribute('tabindex')).toBe('0');
    expect(await canvas.getAttribute('aria-describedby')).toBeTruthy();
    await canvas.focus();
    expect(await canvas.evaluate((c) => document.activeElement === c)).toBe(true);
    return canvas;
  }

  test('transitivity: a number key selects a ball, the arrow keys move it and the verdict changes', async () => {
    const view = page.locator('#transitivity .view');
    await view.locator('xpath=ancestor::figure').locator('[data-action=restart]').click();
    await focusCanvas(view);
    const out = view.locator('.live-output');
    const said = view.locator('.panel [aria-live=polite]');
    expect(await out.getAttribute('data-verdict')).toBe('skip');
    const before = (await view.getAttribute('data-positions'))!.split(' ');
    await page.keyboard.press('1'); // ball A
    await page.keyboard.press('ArrowRight');
    await expect.poll(async () => (await view.getAttribute('data-positions'))!.split(' ')[0]).not.toBe(before[0]);
    expect((await view.getAttribute('data-positions'))!.split(' ').slice(1)).toEqual(before.slice(1)); // only A moved
    for (let k = 0; k < 3 && (await out.getAttribute('data-verdict')) === 'skip'; k++)
      await page.keyboard.press('Shift+ArrowRight');
    expect(await out.getAttribute('data-verdict')).toBe('test'); // A now reaches past B.left
    expect(await said.textContent()).toContain('has to be tested');
    // Space selects the next ball; ArrowUp moves it up only
    await page.keyboard.press('Space');
    const b = (await view.getAttribute('data-positions'))!.split(' ')[1]!.split(',').map(Number);
    await page.keyboard.press('ArrowUp');
    const b2 = (await view.getAttribute('data-positions'))!.split(' ')[1]!.split(',').map(Number);
    expect([b2[0], b2[1]]).toEqual([b[0], b[1]! - 10]);
  });

  test('edges: the arrow keys move a ball past another and the engine’s edge list changes', async () => {
    const view = page.locator('#edges .view').first();
    await view.locator('xpath=ancestor::figure').locator('[data-action=restart]').click();
    await focusCanvas(view);
    const strip = view.locator('.strip');
    const said = view.locator('.panel [aria-live=polite]');
    const before = { order: await strip.getAttribute('data-order'), said: await said.textContent() };
    const xs = (await view.getAttribute('data-positions'))!.split(' ').map((p) => Number(p.split(',')[0]));
    await page.keyboard.press(String(xs.indexOf(Math.min(...xs)) + 1)); // the leftmost ball
    for (let k = 0; k < 12 && (await strip.getAttribute('data-order')) === before.order; k++)
      await page.keyboard.press('Shift+ArrowRight');
    expect(await strip.getAttribute('data-order')).not.toBe(before.order);
    expect(await said.textContent()).toMatch(/^Overlapping on x: /);
  });

  test('chapter 11: B through A gives one began, two nothings and one ended, as the engine counts them', async () => {
    const figure = page.locator('#swaps figure').first();
    const view = figure.locator('.view');
    await figure.locator('[data-action=restart]').click();
    await focusCanvas(view);
    const summary = view.locator('.event-summary');
    await page.keyboard.press('2'); // ball B, right of A
    for (let k = 0; k < 42; k++) await page.keyboard.press('ArrowLeft');
    await expect.poll(() => summary.getAttribute('data-cases')).toBe('began,nothing,nothing,ended');
    expect(await summary.getAttribute('data-engine-began')).toBe('1');
    expect(await summary.getAttribute('data-engine-ended')).toBe('1');
    // and back: B's ")" passes A's "(" first (began), its "(" passes A's ")" last (ended)
    for (let k = 0; k < 42; k++) await page.keyboard.press('ArrowRight');
    await expect
      .poll(() => summary.getAttribute('data-cases'))
      .toBe('began,nothing,nothing,ended,began,nothing,nothing,ended');
    expect(await summary.getAttribute('data-engine-began')).toBe('2');
    expect(await summary.getAttribute('data-engine-ended')).toBe('2');
  });

  test('party: the arrow keys grab a ball and hold it up, Enter throws it the way it last moved', async () => {
    const figure = page.locator('#party figure');
    const view = figure.locator('.view');
    await figure.locator('[data-action=restart]').click();
    await focusCanvas(view);
    if ((await figure.getAttribute('data-state')) === 'paused') await figure.locator('[data-action=play]').click();
    const ball = async (): Promise<number[]> =>
      (await view.getAttribute('data-positions'))!.split(' ')[0]!.split(',').map(Number);
    await page.keyboard.press('1'); // ball A
    const [x0] = await ball();
    const way = x0! > 300 ? -1 : 1; // throw away from the nearer wall
    const arrow = way < 0 ? 'ArrowLeft' : 'ArrowRight';
    await page.keyboard.press(arrow); // grabbed
    const first = await ball();
    await page.keyboard.press(arrow);
    const held = await ball();
    expect(held[0]! - first[0]!).toBeCloseTo(10 * way, 5); // held: only the keys move it
    await page.waitForTimeout(400); // the figure runs: a held ball neither falls nor drifts
    expect(await ball()).toEqual(held);
    await page.keyboard.press('Enter');
    await expect.poll(async () => ((await ball())[0]! - held[0]!) * way, { timeout: 5000 }).toBeGreaterThan(30);
    expect(await view.locator(':scope > p.sr-only').textContent()).toMatch(/thrown/);
  });

  test('game: key 1 moves the eye, key 2 the aim, and the ray follows', async () => {
    const figure = page.locator('#game figure');
    const view = figure.locator('.view');
    const out = view.locator('.live-output');
    await focusCanvas(view);
    await figure.locator('[data-action=restart]').click();
    await view.locator('canvas.sim').focus();
    await page.keyboard.press('1');
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(() => out.textContent()).toContain('castRay from (350, 60)');
    await page.keyboard.press('2');
    const point = await out.getAttribute('data-point');
    for (let k = 0; k < 5; k++) await page.keyboard.press('Shift+ArrowLeft'); // to the left wall at x 0..15
    await expect.poll(() => out.getAttribute('data-point')).not.toBe(point);
    expect(await out.getAttribute('data-point')).toMatch(/^wall \(0, /);
  });
});

/** WCAG relative luminance and contrast of CSS colours given as #rgb, #rrggbb or rgb(r, g, b). */
function rgbOf(color: string): [number, number, number] {
  const hex = color.match(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i)?.[1];
  if (hex) {
    const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
    return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
  }
  const m = color.match(/^rgba?\((\d+),\s*(\d+),\s*(\d+)/);
  if (!m) throw new Error(`not a colour: ${color}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}
function contrast(a: string, b: string): number {
  const lum = (c: string): number => {
    const [r, g, bl] = rgbOf(c)
      .map((v) => v / 255)
      .map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('on a phone (390 x 844, DPR 3, touch)', () => {
  let p: Page;

  beforeAll(async () => {
    p = await open(PHONE);
  });

  afterAll(() => close(p));

  test('a skip link is the first tab stop and leads to chapter 1', async () => {
    await p.keyboard.press('Tab'); // a fresh page: the first tab stop
    const link = p.locator('.skip-link');
    expect(await link.evaluate((l) => document.activeElement === l)).toBe(true);
    expect(await link.isVisible()).toBe(true);
    await p.keyboard.press('Enter');
    await expect.poll(() => p.evaluate(() => location.hash)).toBe('#sim');
  });

  test('every figure fits the width, canvases stay under 40 MB and their labels at 11 CSS px or more', async () => {
    /** Elements wider than their parent (or sticking out of it), except inside a box that scrolls or clips. */
    const overflowing = (root: Locator): Promise<string[]> =>
      root.evaluate((r) => {
        const bad: string[] = [];
        const scrolls = (e: Element): boolean => {
          for (let a = e.parentElement; a && a !== r.parentElement; a = a.parentElement) {
            if (getComputedStyle(a).overflowX !== 'visible') return true;
          }
          return false;
        };
        for (const e of [r, ...r.querySelectorAll('*')]) {
          const box = e.getBoundingClientRect();
          if (box.width === 0 || scrolls(e) || getComputedStyle(e).position === 'absolute') continue;
          const parent = e.parentElement!.getBoundingClientRect();
          if (box.left < parent.left - 1 || box.right > parent.right + 1) {
            bad.push(
              `${e.tagName.toLowerCase()}.${e.className} ${Math.round(box.width)} px in ${Math.round(parent.width)} px: ${(e.textContent ?? '').slice(0, 40)}`,
            );
          }
        }
        return bad;
      });
    const canvasBytes = (): Promise<number> =>
      p.evaluate(() => [...document.querySelectorAll('canvas')].reduce((s, c) => s + c.width * c.height * 4, 0));
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await overflowing(p.locator('main > header'))).toEqual([]);
    let most = 0;
    const fonts = new Map<string, number>();
    const figures = await p.locator('figure.demo').all();
    for (const figure of figures) {
      await figure.scrollIntoViewIfNeeded();
      await mounted(figure);
      await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const section = figure.locator('xpath=ancestor::section');
      const id = await section.getAttribute('id');
      expect(await overflowing(section), id!).toEqual([]);
      most = Math.max(most, await canvasBytes());
      const drawn = await figure
        .locator('canvas[data-min-font]')
        .evaluateAll((cs) => cs.map((c) => Number((c as HTMLElement).dataset.minFont)));
      drawn.forEach((px, i) => fonts.set(`${id} canvas ${i}`, px));
    }
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThan(40e6);
    // text is drawn on the axis views, the labelled balls, the sort ticks, the game and the benchmark chart
    expect(fonts.size).toBeGreaterThanOrEqual(8);
    for (const [where, px] of fonts) expect(px, where).toBeGreaterThanOrEqual(11);
  });

  test('controls are 44 px touch targets, the counters one line with a disclosure, chapter 9 tabs', async () => {
    const figure = p.locator('#compare-2 figure');
    await figure.scrollIntoViewIfNeeded();
    await mounted(figure);
    for (const b of await figure.locator('.controls button, .tabs button').all()) {
      expect((await b.boundingBox())!.height).toBeGreaterThanOrEqual(44);
    }
    // one view at a time; another tab shows another view
    const shown = (): Promise<number> =>
      figure.locator('.view').evaluateAll((vs) => vs.filter((v) => v.getBoundingClientRect().height > 0).length);
    expect(await shown()).toBe(1);
    await figure.locator('[role=tab]').nth(2).click();
    expect(
      await figure
        .locator('.view')
        .nth(2)
        .evaluate((v) => v.getBoundingClientRect().height),
    ).toBeGreaterThan(0);
    expect(await shown()).toBe(1);
    expect(errors).toEqual([]);
    // the three views' counts stay in sight above the tabs, each as its own counter says
    const counts = figure.locator('.tab-counts');
    expect(await counts.isVisible()).toBe(true);
    const [summary, tested] = await figure.evaluate((f) => [
      [...f.querySelectorAll('.tab-counts b')].map((b) => b.textContent!.split(' ').at(-1)),
      [...f.querySelectorAll('.view [data-stat=tested] dd')].map((d) => d.textContent),
    ]);
    expect(summary).toEqual(tested);
    const view = figure.locator('.view').nth(2);
    const stats = view.locator('dl.stats');
    const line = await stats.evaluate((d) => d.getBoundingClientRect().height);
    expect(line).toBeLessThan(30);
    const more = view.locator('.stats-more');
    await more.click();
    expect(await more.getAttribute('aria-expanded')).toBe('true');
    expect(await stats.evaluate((d) => d.getBoundingClientRect().height)).toBeGreaterThan(line);
  });

  test('party: a vertical swipe on a ball drags it, anywhere else on the canvas it scrolls the page', async () => {
    const figure = p.locator('#party figure');
    const view = figure.locator('.view');
    await figure.scrollIntoViewIfNeeded();
    await mounted(figure);
    await figure.locator('[data-action=play]').click(); // paused: only the finger moves a ball
    const box = (await view.locator('canvas.sim').boundingBox())!;
    const s = box.width / 600;
    const cdp = await p.context().newCDPSession(p);
    const swipe = async (x: number, y: number, dy: number): Promise<number> => {
      const before = await p.evaluate(() => window.scrollY);
      const at = (k: number): Array<{ x: number; y: number; id: number }> => [{ x, y: y + (dy * k) / 8, id: 1 }];
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
      for (let k = 1; k <= 8; k++)
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(k) });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await p.waitForTimeout(250);
      return (await p.evaluate(() => window.scrollY)) - before;
    };
    const positions = async (): Promise<number[][]> =>
      (await view.getAttribute('data-positions'))!.split(' ').map((q) => q.split(',').map(Number));
    const [bx, by] = (await positions())[0]!;
    expect(await swipe(box.x + bx! * s, box.y + by! * s, -60)).toBe(0);
    expect((await positions())[0]![1]).toBeLessThan(by! - 20);
    // the spot of the canvas farthest from every ball
    const all = await positions();
    let far = { x: 0, y: 0, d: -Infinity };
    for (let x = 20; x < 600; x += 20) {
      for (let y = 20; y < 400; y += 20) {
        const d = Math.min(...all.map(([px, py, r]) => Math.hypot(px! - x, py! - y) - r!));
        if (d > far.d) far = { x, y, d };
      }
    }
    expect(await swipe(box.x + far.x * s, box.y + far.y * s, -60)).toBeGreaterThan(20);
    await cdp.detach();
  });

  test('state colours have 3:1 contrast against what they are drawn on', async () => {
    const palette = await import('../../web/demo/palette.js');
    for (const [name, color, background] of palette.STATE_PAIRS) {
      expect(contrast(color, background), name).toBeGreaterThanOrEqual(3);
    }
    // the stylesheet, as the browser computes it: prose on the page, counters and outputs on the figures' panels
    const css = await p.evaluate(() => {
      const style = (sel: string, prop: 'color' | 'backgroundColor' | 'borderTopColor'): string =>
        getComputedStyle(document.querySelector(sel)!)[prop];
      return {
        page: style('body', 'backgroundColor'),
        panel: style('figure.demo', 'backgroundColor'),
        began: style('p b.began', 'color'),
        ended: style('p b.ended', 'color'),
        border: style('.controls button', 'borderTopColor'),
        began2: getComputedStyle(document.documentElement).getPropertyValue('--began').trim(),
      };
    });
    expect(rgbOf(css.began)).toEqual(rgbOf(palette.BEGAN)); // the page's colours are the palette's
    for (const [fg, bg, name] of [
      [css.began, css.page, 'began on the page'],
      [css.ended, css.page, 'ended on the page'],
      [css.began, css.panel, 'began on a panel'],
      [css.ended, css.panel, 'ended on a panel'],
      [css.border, css.panel, 'control border on a panel'],
    ] as const) {
      expect(contrast(fg, bg), name).toBeGreaterThanOrEqual(3);
    }
  });
});

test('the static build contains the page and its assets', async () => {
  const out = mkdtempSync(join(tmpdir(), 'demo-dist-'));
  try {
    const build = spawn(vite, ['build', '--config', config, '--outDir', out, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: root,
    });
    let log = '';
    build.stderr.on('data', (d) => (log += d));
    const code = await new Promise<number | null>((resolve) => build.on('exit', resolve));
    expect(code, log).toBe(0);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('Sort, sweep and prune');
    const assets = readdirSync(join(out, 'assets'));
    expect(assets.some((f) => f.endsWith('.js'))).toBe(true);
    expect(assets.some((f) => f.endsWith('.css'))).toBe(true);
    // the page embeds the single-threaded engine; the threaded one is a file of its own (fetched for Threads = 2),
    // and no other module is emitted
    expect(assets.filter((f) => f.endsWith('.wasm')).map((f) => f.replace(/-[\w-]+\.wasm$/, ''))).toEqual([
      'sweep_prune_threads',
    ]);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
