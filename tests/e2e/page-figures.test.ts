// The demo page's figures that compare, in real Chromium on a desktop (1100 px) and an emulated phone (390 px at DPR
// 3), each across its controls' range: chapter 16's tunnelling at every speed class (its share of crossings seen
// against the geometry's), the grid against the engine at each clustering, size spread and cell size (pairs against
// brute force, and what the text claims); chapter 17 runs the real phaser and matter-js packages twice, on their own broadphases and on sweep-prune's
// adapters, and must show equal collisions and bodies at every step, with the engines downloaded only when the
// chapter is reached and built into chunks of their own.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { launchChromium } from '../../web/scripts/chromium.mjs';
import { mounted, startDemoServer } from './demo-page';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ENGINE_URL = /\/(phaser|matter-js)\.js|adapters\/(phaser|matter)\//;

let server: { url: string; stop: () => void } | undefined;
beforeAll(async () => {
  server = await startDemoServer();
});
afterAll(() => server?.stop());

const DEVICES = {
  desktop: { viewport: { width: 1100, height: 800 }, deviceScaleFactor: 1 },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
};

/** What chapter 17's table says: steps run, each world's collisions in all, steps at which the worlds differed. */
async function twins(figure: Locator): Promise<Record<string, number>> {
  const d = await figure.locator('.engines-table').evaluate((t) => ({ ...(t as HTMLElement).dataset }));
  return Object.fromEntries(Object.entries(d).map(([k, v]) => [k, Number(v)]));
}

/** Choose a scene (and N) as a reader does, and wait for both worlds to have run `steps` steps. */
async function run(figure: Locator, engine: string, n: string | undefined, steps: number): Promise<void> {
  await figure.locator('select[data-knob=engine]').selectOption(engine);
  if (n !== undefined) {
    await figure.locator('input[data-knob=n]').fill(n);
    await expect
      .poll(() => figure.locator('.engines-table caption').textContent(), { timeout: 30_000 })
      .toMatch(n.replace(/\B(?=(\d{3})+$)/, ','));
  }
  await expect.poll(async () => (await twins(figure)).steps, { timeout: 45_000 }).toBeGreaterThanOrEqual(steps);
}

for (const [name, device] of Object.entries(DEVICES)) {
  describe(`chapter 17 on a ${name} (${device.viewport.width} px)`, () => {
    let context: BrowserContext;
    let page: Page;
    const errors: string[] = [];
    const requests: string[] = [];

    beforeAll(async () => {
      context = (await launchChromium(device)) as BrowserContext;
      page = context.pages()[0] ?? (await context.newPage());
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(server!.url);
      await page.waitForSelector('html[data-ready=true]', { timeout: 30_000 });
    });
    afterAll(() => context?.close());

    test('the engines are downloaded only when the chapter is reached', async () => {
      await page.waitForTimeout(500);
      expect(requests.filter((u) => ENGINE_URL.test(u))).toEqual([]);
      const figure = page.locator('#engines figure');
      await figure.scrollIntoViewIfNeeded();
      await mounted(figure);
      await expect.poll(() => requests.some((u) => u.includes('phaser')), { timeout: 30_000 }).toBe(true);
      expect(requests.some((u) => u.includes('matter'))).toBe(false); // the first scene is Phaser's
    });

    test('each scene runs twice: the same collisions and the same bodies at every step, both timed', async () => {
      const figure = page.locator('#engines figure');
      await figure.scrollIntoViewIfNeeded();
      await mounted(figure);
      for (const [engine, n] of [
        ['bullets', '1000'],
        ['swarm', '500'],
        ['matter', '300'],
      ] as const) {
        await run(figure, engine, n, 40);
        const t = await twins(figure);
        expect(t.ownTotal, `${engine}: collisions happened`).toBeGreaterThan(0);
        expect(t.oursTotal, `${engine}: sweep-prune's collisions are the engine's own`).toBe(t.ownTotal);
        expect(t.collisionsDiffered, `${engine}: steps whose collisions differed`).toBe(0);
        expect(t.bodiesDiffered, `${engine}: steps whose bodies differed`).toBe(0);
        expect(t.ownMs).toBeGreaterThan(0);
        expect(t.oursMs).toBeGreaterThan(0);
        // the sentence and its ratio in one snapshot: both worlds step on, and each step times them again
        const { verdict, ratio } = await figure
          .locator('.engines-verdict')
          .evaluate((e) => ({ verdict: e.textContent ?? '', ratio: Number((e as HTMLElement).dataset.ratio) }));
        expect(verdict).toMatch(/^the same collisions and the same bodies at every one of the \d+ steps; /);
        // the sentence names the side that was faster, as measured
        if (ratio >= 1.05) expect(verdict).toContain('faster');
        else if (ratio <= 1 / 1.05) expect(verdict).toContain('slower');
        else expect(verdict).toContain('about as long');
      }
      expect(requests.some((u) => u.includes('matter'))).toBe(true);
      expect(errors).toEqual([]);
    });

    test('Phaser’s R-tree, its default, against the adapter: the same overlaps, its own time', async () => {
      const figure = page.locator('#engines figure');
      await figure.scrollIntoViewIfNeeded();
      await run(figure, 'bullets', '1000', 1);
      await figure.locator('select[data-knob=tree]').selectOption('tree');
      await expect
        .poll(() => figure.locator('.engines-table tbody th').first().textContent())
        .toBe('Phaser, its R-tree');
      await expect.poll(async () => (await twins(figure)).steps, { timeout: 45_000 }).toBeGreaterThanOrEqual(40);
      const t = await twins(figure);
      // an overlap moves nothing: in any order the tree finds the same pairs each step
      expect(t.ownTotal).toBeGreaterThan(0);
      expect(t.oursTotal).toBe(t.ownTotal);
      expect(t.collisionsDiffered).toBe(0);
      await figure.locator('select[data-knob=tree]').selectOption('walk');
    });

    test('Restart keeps the scene and N; N counts the bodies of each world', async () => {
      const figure = page.locator('#engines figure');
      await figure.scrollIntoViewIfNeeded();
      await run(figure, 'swarm', '750', 5);
      await figure.locator('[data-action=restart]').click();
      await expect.poll(async () => (await twins(figure)).steps).toBeLessThan(200);
      expect(await figure.locator('select[data-knob=engine]').inputValue()).toBe('swarm');
      expect(await figure.locator('input[data-knob=n]').inputValue()).toBe('750');
      await expect
        .poll(() => figure.locator('.engines-table caption').textContent(), { timeout: 30_000 })
        .toMatch(/^750 bodies/);
      expect(await figure.locator('[data-stat=bodies] dd').textContent()).toBe('750');
    });

    test('chapter 16: at each speed the box as it is lands on the wall in about 18 / speed of its crossings', async () => {
      const figure = page.locator('#next figure').nth(2);
      await figure.scrollIntoViewIfNeeded();
      await mounted(figure);
      const out = figure.locator('.tunnel-readout');
      const read = (): Promise<number[]> =>
        out.evaluate((e) => ['crossings', 'seenPlain', 'seenSwept'].map((k) => Number((e as HTMLElement).dataset[k])));
      // box 10 wide, wall 8: the box's centre must land within 18 units to overlap the wall at an update
      for (const [speed, crossings] of [
        [6, 3],
        [18, 6],
        [24, 24],
        [40, 24],
        [60, 24],
      ] as const) {
        await figure.locator('input[data-knob=speed]').fill(String(speed));
        await figure.locator('[data-action=restart]').click(); // counts from zero; the speed is kept
        expect(await figure.locator('input[data-knob=speed]').inputValue()).toBe(String(speed));
        await expect.poll(async () => (await read())[0], { timeout: 40_000 }).toBeGreaterThanOrEqual(crossings);
        const [k, plain, swept] = await read();
        // a crossing under way when read may be seen one ahead of the count
        expect(swept! - k!, `speed ${speed}: the swept box sees every crossing`).toBeGreaterThanOrEqual(0);
        expect(swept! - k!).toBeLessThanOrEqual(1);
        const share = Math.min(1, 18 / speed);
        if (share === 1) expect([k, k! + 1], `speed ${speed}: no tunnelling`).toContain(plain);
        else expect(Math.abs(plain! / k! - share), `speed ${speed}: ${plain} of ${k} seen`).toBeLessThan(0.15);
        expect(await out.textContent()).toContain(
          share === 1 ? 'cannot miss it' : `about ${Math.round(100 * share)} %`,
        );
      }
    });

    test('chapter 16: grid and engine find the brute-force pairs at every setting; the text’s claims hold', async () => {
      const figure = page.locator('#next figure').first();
      await figure.scrollIntoViewIfNeeded();
      await mounted(figure);
      const out = figure.locator('.grid-readout');
      // the readout's figures and its text in one snapshot: the field runs on, and a frame between two reads changes both
      const read = (): Promise<{ d: Record<string, string>; brute: number; text: string }> =>
        out.evaluate((e) => {
          const b = (e as HTMLElement & { boxes: Float32Array }).boxes;
          let brute = 0;
          for (let i = 0; i < b.length; i += 4)
            for (let j = i + 4; j < b.length; j += 4)
              if (b[i]! <= b[j + 2]! && b[j]! <= b[i + 2]! && b[i + 1]! <= b[j + 3]! && b[j + 1]! <= b[i + 3]!) brute++;
          return { d: { ...(e as HTMLElement).dataset } as Record<string, string>, brute, text: e.textContent ?? '' };
        });
      /** Set the sliders, wait for `frames` frames of the fresh field, check the pairs, return the means per frame. */
      const at = async (clustering: number, spread: number, cell: number, frames = 20) => {
        for (const [knob, v] of [
          ['clustering', clustering],
          ['spread', spread],
          ['cell', cell],
        ] as const)
          await figure.locator(`input[data-knob=${knob}]`).fill(String(v));
        await expect
          .poll(async () => {
            const { d } = await read();
            return `${d.field} ${d.cell}`;
          })
          .toBe(`${clustering},${spread} ${cell}`);
        await expect
          .poll(async () => Number((await read()).d.frames), { timeout: 20_000 })
          .toBeGreaterThanOrEqual(frames);
        const { d, brute, text } = await read();
        const where = `clustered ${clustering} %, spread ${spread} %, cell ${cell}`;
        expect(Number(d.gridPairs), where).toBe(brute);
        expect(Number(d.enginePairs), where).toBe(brute);
        expect(Number(d.gridMs)).toBeGreaterThan(0);
        expect(Number(d.engineMs)).toBeGreaterThan(0);
        const [grid, engine] = [Number(d.gridMean), Number(d.engineMean)];
        expect(text).toContain(grid < engine ? 'the grid compares fewer' : 'sweep-prune compares fewer');
        expect(text).toContain(Number(d.gridMs) < Number(d.engineMs) ? 'the grid is faster' : 'sweep-prune is faster');
        return { grid, engine, where };
      };
      for (const clustering of [0, 50, 100]) {
        // one size, a cell of their side: the grid compares fewer, spread out or clustered
        const alike = await at(clustering, 0, 1);
        expect(alike.grid, alike.where).toBeLessThan(alike.engine);
        await at(clustering, 50, 1, 5);
      }
      for (const cell of [0.5, 1, 2, 4, 6]) {
        // sizes spread to 100 %: about twice the engine's comparisons or more, at any cell size
        const spread = await at(0, 100, cell, 5);
        expect(spread.grid, spread.where).toBeGreaterThan(1.5 * spread.engine);
      }
      await at(100, 100, 1, 1);
      // Restart keeps the sliders
      await figure.locator('[data-action=restart]').click();
      for (const [knob, v] of [
        ['clustering', '100'],
        ['spread', '100'],
        ['cell', '1'],
      ])
        expect(await figure.locator(`input[data-knob=${knob}]`).inputValue()).toBe(v);
      // Play moves the boxes: the pairs change from frame to frame
      const before = (await read()).d.gridTests;
      await expect.poll(async () => (await read()).d.gridTests, { timeout: 10_000 }).not.toBe(before);
    });

    test('chapter 8: beside the scattered balls, the column makes 1D sweep-and-prune test every pair', async () => {
      const figure = page.locator('#prune figure').first();
      await figure.scrollIntoViewIfNeeded();
      await mounted(figure);
      const [scattered, column] = [figure.locator('.view').nth(0), figure.locator('.view').nth(1)];
      const tested = async (view: Locator): Promise<number> =>
        Number(((await view.locator('[data-stat=tested] dd').textContent()) ?? '').replace(/,/g, ''));
      for (const n of [6, 12]) {
        await figure.locator('.controls input[type=range]').fill(String(n));
        // each view at its own pace: both complete passes
        for (const view of [scattered, column])
          await expect.poll(() => view.getAttribute('data-frames'), { timeout: 30_000 }).not.toBe('0');
        await expect.poll(() => tested(column), { timeout: 30_000 }).toBe((n * (n - 1)) / 2);
        expect(await tested(scattered)).toBeLessThan((n * (n - 1)) / 2);
        // a column: one x for every ball
        const xs = ((await column.getAttribute('data-positions')) ?? '').split(' ').map((p) => p.split(',')[0]);
        expect(new Set(xs).size).toBe(1);
      }
    });

    test('chapter 10: the cost table against the formulas; a ball dragged across costs insertion sort swaps', async () => {
      const figure = page.locator('#sorting figure');
      await figure.scrollIntoViewIfNeeded();
      await mounted(figure);
      const table = figure.locator('.sort-costs-table');
      const rows = async (order: string): Promise<Record<string, string>[]> => {
        await figure.locator('select[data-knob=order]').selectOption(order);
        await expect.poll(() => table.getAttribute('data-done'), { timeout: 20_000 }).toBe('true');
        expect(await table.getAttribute('data-order')).toBe(order);
        return table
          .locator('tbody tr')
          .evaluateAll((trs) => trs.map((tr) => ({ ...(tr as HTMLElement).dataset }) as Record<string, string>));
      };
      const num = (r: Record<string, string>, k: string): number => Number(r[k]);
      for (const r of await rows('sorted')) {
        const n = num(r, 'n');
        expect(num(r, 'insertionComparisons')).toBe(n - 1);
        expect(num(r, 'insertionSwaps')).toBe(0);
        expect(num(r, 'quickComparisons')).toBeGreaterThan(n); // about n log2 n
      }
      for (const r of await rows('frame')) {
        // the article's case: insertion sort compares about n times, quicksort about n log2 n
        const n = num(r, 'n');
        expect(num(r, 'insertionComparisons')).toBeLessThan(2 * n);
        expect(num(r, 'quickComparisons') / num(r, 'insertionComparisons')).toBeGreaterThan(n >= 1000 ? 7 : 2);
      }
      const reversed = await rows('reversed');
      for (const r of reversed.filter((r) => r.insertionComparisons !== undefined)) {
        const n = num(r, 'n');
        expect(num(r, 'insertionComparisons')).toBe((n * (n - 1)) / 2);
        expect(num(r, 'insertionSwaps')).toBe((n * (n - 1)) / 2);
      }
      expect(reversed.at(-1)!.n).toBe('10000');
      expect(reversed.at(-1)!.insertionComparisons).toBeUndefined(); // not run: it would hold the page up
      await figure.locator('select[data-knob=order]').selectOption('frame');
      await figure.locator('[data-action=restart]').click();
      expect(await figure.locator('select[data-knob=order]').inputValue()).toBe('frame'); // kept across Restart

      // the reader's own order: the leftmost ball jumps to the right in one move
      const insertion = figure.locator('.view').nth(1);
      const canvas = insertion.locator('canvas.sim');
      await canvas.scrollIntoViewIfNeeded();
      const box = (await canvas.boundingBox())!;
      const s = box.width / 600;
      const [x, y] = ((await insertion.getAttribute('data-positions')) ?? '').split(' ')[0]!.split(',').map(Number);
      const swaps = async (): Promise<number> =>
        Number(await insertion.locator('[data-stat=lastSwaps] dd').textContent());
      await page.mouse.move(box.x + x! * s, box.y + y! * s);
      await page.mouse.down();
      await page.mouse.move(box.x + 590 * s, box.y + y! * s, { steps: 1 });
      await page.mouse.up();
      // its two edges passed the other ten: insertion sort swaps for each, in one sort
      await expect.poll(swaps, { timeout: 30_000 }).toBeGreaterThanOrEqual(8);
    });

    test('chapter 4: the code lights the sort, each test and each break as the loop runs them', async () => {
      const figure = page.locator('#sorted figure');
      await figure.scrollIntoViewIfNeeded();
      await mounted(figure);
      const code = page.locator('#code-sorted');
      await figure.locator('[data-action=play]').click(); // paused: Step goes from beat to beat
      const seen = new Set<string>();
      for (let k = 0; k < 300 && seen.size < 3; k++) {
        await figure.locator('[data-action=step]').click();
        const lit = (await code.getAttribute('data-lit')) ?? '';
        if (lit) seen.add(lit);
        // the lit line is the one marked for assistive technology too
        const current = await code
          .locator('[aria-current]')
          .evaluateAll((spans) => spans.map((e) => (e as HTMLElement).dataset.line));
        expect(current).toEqual(lit ? [lit] : []);
      }
      expect([...seen].sort()).toEqual(['break', 'sort', 'test']);
      await figure.locator('[data-action=play]').click();
    });

    test('chapter 7: the code lights the line the sweep runs, at the edge the line stands on', async () => {
      const figure = page.locator('#sweep figure').nth(1);
      await figure.scrollIntoViewIfNeeded();
      await mounted(figure);
      const code = page.locator('#code-sweep');
      await expect.poll(() => code.getAttribute('data-lit'), { timeout: 30_000, interval: 20 }).toBe('loop');
      await figure.locator('[data-action=play]').click(); // paused: Step goes from beat to beat
      const strip = figure.locator('.strip');
      const seen = new Set<string>();
      for (let k = 0; k < 400 && seen.size < 3; k++) {
        await figure.locator('[data-action=step]').click();
        const lit = (await code.getAttribute('data-lit')) ?? '';
        const marked = await strip.getAttribute('data-marked');
        if (!lit || !marked || lit === 'loop') continue;
        seen.add(lit);
        // an edge's ref is its box's slot times two, plus one for a max edge: ")" removes, "(" reports and adds
        expect(Number(marked) & 1, `${lit} at edge ${marked}`).toBe(lit === 'remove' ? 1 : 0);
      }
      expect([...seen].sort()).toEqual(['add', 'remove', 'report']);
      await figure.locator('[data-action=play]').click();
    });
    test('the figure fits the width and its canvas labels stay legible', async () => {
      const figure = page.locator('#engines figure');
      await figure.scrollIntoViewIfNeeded();
      await mounted(figure);
      const over = await figure.evaluate((f) =>
        [...f.querySelectorAll('*')]
          .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
          .map((e) => e.tagName + '.' + (e as HTMLElement).className),
      );
      expect(over).toEqual([]);
      const canvas = figure.locator('canvas.sim');
      await expect.poll(() => canvas.getAttribute('data-min-font')).not.toBeNull();
      expect(Number(await canvas.getAttribute('data-min-font'))).toBeGreaterThanOrEqual(11);
    });
  });
}

test('the static build keeps the engines out of the first load, in chunks of their own', async () => {
  const out = mkdtempSync(join(tmpdir(), 'demo-build-'));
  try {
    const vite = join(root, 'node_modules/.bin/vite');
    const args = ['build', '--config', join(root, 'web/vite.config.ts'), '--outDir', out, '--emptyOutDir'];
    const build = spawn(vite, [...args, '--logLevel', 'error'], { cwd: root, stdio: 'inherit' });
    expect(await new Promise((resolve) => build.on('exit', resolve))).toBe(0);
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    // what the page fetches before any figure runs: the entry and the modules it preloads, and their static imports
    const first = new Set<string>();
    const visit = (file: string): void => {
      if (first.has(file)) return;
      first.add(file);
      const code = readFileSync(join(out, 'assets', file), 'utf8');
      for (const m of code.matchAll(/(?:^|[;\s])import\s*[^()"']*?from\s*"\.\/([^"]+\.js)"/g)) visit(m[1]!);
    };
    for (const m of html.matchAll(/(?:src|href)="\.\/assets\/([^"]+\.js)"/g)) visit(m[1]!);
    const loaded = [...first].map((f) => readFileSync(join(out, 'assets', f), 'utf8')).join('\n');
    expect(loaded.length).toBeGreaterThan(0);
    // Phaser's banner, and matter-js's plugin registry (Phaser bundles a matter-js of its own too)
    const PHASER = 'Phaser v';
    const MATTER = 'Plugin.register';
    expect(loaded).not.toContain(PHASER);
    expect(loaded).not.toContain(MATTER);
    const chunks = readdirSync(join(out, 'assets')).filter((f) => f.endsWith('.js') && !first.has(f));
    const holding = (marker: string): string[] =>
      chunks.filter((f) => readFileSync(join(out, 'assets', f), 'utf8').includes(marker));
    expect(holding(PHASER).length, 'a chunk holding phaser').toBe(1);
    expect(holding(MATTER).filter((f) => !holding(PHASER).includes(f)).length, 'a chunk holding matter-js').toBe(1);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 120_000);
