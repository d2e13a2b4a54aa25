// Finding one's way around the demo page in Chromium, on a desktop (1100 px) and a phone (390 px, DPR 3, touch): the
// small things a reader trips on, and what a screen reader or a keyboard is given. (The contents links:
// page-links.test.ts; no task over 200 ms: page-tasks.test.ts.)
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DESKTOP, PHONE, demoPages, inSight, mounted } from './demo-page';

const { open, close } = demoPages();

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('the small things, on the %s', (_, device) => {
  let page: Page;
  beforeAll(async () => {
    page = await open(device);
  });
  afterAll(() => close(page));

  /** A figure near the screen, built, and paused or playing as asked. */
  async function figureAt(selector: string, state?: 'paused' | 'playing'): Promise<Locator> {
    const figure = page.locator(selector);
    await inSight(figure);
    await mounted(figure);
    if (state && (await figure.getAttribute('data-state')) !== state)
      await figure.locator('[data-action=play]').click();
    return figure;
  }

  test('chapter 7: labels of balls that pass through each other are drawn apart, each beside its ball', async () => {
    // the page's own drawing code on a canvas of its own: five balls nearly on one spot, then five far apart
    // (a script in a string: vitest would rewrite a dynamic import written here)
    const place = (spots: number[][]): Promise<number[][]> =>
      page.evaluate(`(async () => {
        const { Surface } = await import('/draw.ts');
        const { drawLabels } = await import('/scene.ts');
        const canvas = document.createElement('canvas');
        canvas.style.width = '600px';
        document.body.append(canvas);
        const g = new Surface(canvas, 600, 400);
        g.activate();
        const balls = ${JSON.stringify(spots)}.map(([x, y], i) =>
          ({ x, y, r: 30, vx: 0, vy: 0, color: '#fff', held: false, id: i, label: 'ABCDE'[i] }));
        drawLabels(g, balls);
        const placed = JSON.parse(canvas.dataset.labels);
        g.release();
        canvas.remove();
        return placed;
      })()`);
    const crowd = [
      [300, 200],
      [303, 201],
      [298, 203],
      [301, 197],
      [304, 204],
    ];
    const labels = await place(crowd);
    expect(labels.length).toBe(5);
    for (let i = 0; i < 5; i++) {
      const [x, y, w, h] = labels[i]!;
      // beside its own ball: within a label's height of its edge
      expect(Math.hypot(x! - crowd[i]![0]!, y! - crowd[i]![1]!)).toBeLessThanOrEqual(30 + h!);
      for (let j = i + 1; j < 5; j++) {
        const [x2, y2, w2, h2] = labels[j]!;
        const apart = Math.abs(x! - x2!) >= (w! + w2!) / 2 - 0.01 || Math.abs(y! - y2!) >= (h! + h2!) / 2 - 0.01;
        expect(apart, `labels ${i} and ${j}`).toBe(true);
      }
    }
    // balls apart: every label in the middle of its ball
    const apart = [
      [60, 60],
      [200, 300],
      [300, 100],
      [450, 250],
      [550, 60],
    ];
    expect((await place(apart)).map(([x, y]) => [x, y])).toEqual(apart);
  });

  test('chapter 16: the arrow points along the sweep axis, which flips once one side is half as long again', async () => {
    const figure = await figureAt('#next figure >> nth=1');
    const out = figure.locator('.squash-readout');
    const knob = figure.locator('input[data-knob=squash]');
    const at = async (v: number): Promise<{ axis: string; label: string; aspect: number }> => {
      await knob.fill(String(v));
      await expect.poll(() => out.getAttribute('data-squash')).toBe(String(v));
      const d = await out.evaluate((e) => ({ ...(e as HTMLElement).dataset }));
      expect(d.sweepAxis, `the drawn axis at ${v}`).toBe(d.engineSweepAxis);
      return { axis: d.engineSweepAxis!, label: d.axisLabel!, aspect: Number(d.aspect) };
    };
    /** Slider values from `from` to `to`: the aspect (height over width) at which the axis first differs. */
    const sweep = async (from: number, to: number): Promise<{ axes: string; flip: number }> => {
      let axes = '';
      let flip = NaN;
      for (let v = from; from < to ? v <= to : v >= to; v += from < to ? 5 : -5) {
        const { axis, label, aspect } = await at(v);
        expect(label, `slider at ${v}`).toBe(axis === '0' ? 'sweep axis: x →' : 'sweep axis: y ↓');
        if (axes && axis !== axes.at(-1) && Number.isNaN(flip)) flip = aspect;
        axes += axis;
      }
      return { axes, flip };
    };
    // wide to tall: x, then y from about 1.5 times as tall as wide (the spreads of random places vary a little)
    const up = await sweep(-100, 100);
    expect(up.axes).toMatch(/^0+1+$/);
    expect(up.flip).toBeGreaterThan(1.2);
    expect(up.flip).toBeLessThan(2);
    // and back: y until it is about 1.5 times as wide as tall
    const down = await sweep(100, -100);
    expect(down.axes).toMatch(/^1+0+$/);
    expect(1 / down.flip).toBeGreaterThan(1.2);
    expect(1 / down.flip).toBeLessThan(2);
  }, 120_000);

  test('chapter 8’s slab figure: a few counters, and a single comparison said as once', async () => {
    const figure = await figureAt('#prune figure >> nth=2', 'paused');
    expect(await figure.locator('.view dl.stats > div').count()).toBeLessThanOrEqual(6);
    const canvas = figure.locator('canvas.sim');
    const said = figure.locator('.prune-readout');
    await canvas.focus();
    await page.keyboard.press('1');
    for (let k = 0; k < 150; k++) {
      const text = (await said.textContent())!;
      expect(text).not.toMatch(/\b1 times\b|\b1 boxes\b|\b1 pairs\b/);
      if ((await said.getAttribute('data-candidates')) === '1') expect(text).toContain('compared it once');
      await page.keyboard.press('Space');
    }
    await canvas.blur();
  }, 120_000);

  test('chapter 11: the engine’s x-overlaps are shown beside the JS count of the same moment, never mid-pass', async () => {
    const figure = await figureAt('#swaps figure >> nth=1', 'playing');
    await figure.locator('[data-action=restart]').click();
    const view = figure.locator('.view');
    const read = async (): Promise<string> => (await view.locator('[data-stat="candidates"] dd').textContent())!;
    // before the first pass has ended there is nothing to hold side by side
    expect(await read()).toBe('–');
    await expect.poll(read, { timeout: 30_000 }).toMatch(/^\d+ = \d+$/);
    for (let k = 0; k < 20; k++) {
      expect(await read()).toMatch(/^(\d+) = \1$/);
      await page.waitForTimeout(100);
    }
  }, 60_000);

  test('chapter 15: Play is released when the run ends, a second Play runs it again, and each time has its spread', async () => {
    const figure = await figureAt('#benchmark figure');
    await figure.locator('select[data-option=max]').selectOption('1000');
    const play = figure.locator('[data-action=play]');
    if ((await figure.getAttribute('data-state')) === 'paused') await play.click();
    await page.waitForSelector('#benchmark table[data-done=true]', { timeout: 60_000 });
    await expect.poll(() => play.getAttribute('aria-pressed')).toBe('false');
    expect(await figure.getAttribute('data-state')).toBe('paused');
    await play.click();
    expect(await play.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => figure.locator('table[data-done=true]').count()).toBe(0);
    await page.waitForSelector('#benchmark table[data-done=true]', { timeout: 60_000 });
    await expect.poll(() => play.getAttribute('aria-pressed')).toBe('false');
    for (const cell of await figure.locator('tbody td:has(small)').all()) {
      const [median, spread] = (await cell.innerText()).split('\n');
      const [lo, hi] = spread!.split('–').map(Number);
      expect(lo).toBeLessThanOrEqual(Number(median));
      expect(Number(median)).toBeLessThanOrEqual(hi!);
    }
  }, 150_000);

  test('chapters 14 and 15 state the engine’s time at one N the same way, side by side', async () => {
    // the benchmark measures N = 1 000 (the test before may have); chapter 14 at 1 000 boxes sets its own beside it
    const bench = await figureAt('#benchmark figure');
    const measured = async (): Promise<string | undefined> =>
      (await bench.locator('table[data-done=true] tbody tr').allInnerTexts()).find((r) => r.startsWith('1,000'));
    if (!(await measured())) {
      await bench.locator('select[data-option=max]').selectOption('1000');
      await bench.locator('[data-action=play]').click();
      await page.waitForSelector('#benchmark table[data-done=true]', { timeout: 60_000 });
    }
    const row = (await measured())!;
    const wasm = row.split('\t')[4]!.split('\n');
    const figure = await figureAt('#scale figure', 'playing');
    await figure.locator('.scale-n input[type=range]').fill('1000');
    const readout = figure.locator('.scale-readout');
    await expect.poll(() => readout.getAttribute('data-boxes')).toBe('1000');
    // (its own figure gets its range once it has more than one run of updates at this N)
    await expect
      .poll(() => readout.textContent(), { timeout: 20_000 })
      .toMatch(/sweep-prune: [\d.]+ ms \([\d.]+–[\d.]+\) per update.*the benchmark \(chapter 15\) at this N/);
    // the text and the figure's own time read at one moment: the panel rewrites both every few updates
    const [text, updateMs, benchmarkMs] = await readout.evaluate((r: HTMLElement) => [
      r.textContent!,
      r.dataset.updateMs!,
      r.dataset.benchmarkMs!,
    ]);
    // the benchmark's figure as its table states it, and this figure's in the same form: a median and a range
    expect(text).toContain(`the benchmark (chapter 15) at this N: ${wasm[0]} ms (${wasm[1]})`);
    const own = /sweep-prune: ([\d.]+) ms \(([\d.]+)–([\d.]+)\) per update/.exec(text)!;
    expect(own).not.toBeNull();
    const [m, lo, hi] = own.slice(1).map(Number) as [number, number, number];
    expect(lo).toBeLessThanOrEqual(m);
    expect(m).toBeLessThanOrEqual(hi);
    // the ratio from the benchmark's time as measured, which the table shows rounded (to its last decimal)
    const decimals = wasm[0]!.split('.')[1]?.length ?? 0;
    expect(Math.abs(Number(benchmarkMs) - Number(wasm[0]))).toBeLessThanOrEqual(0.5 * 10 ** -decimals + 1e-9);
    const ratio = Number(/takes ([\d.]+) times as long/.exec(text)![1]);
    expect(ratio).toBeCloseTo(Number(updateMs) / Number(benchmarkMs), 0);
    await figure.locator('.scale-n input[type=range]').fill('10000');
  }, 60_000);

  test('chapter 14: the chart names its 60 fps line in its title, and the 100 000 boxes’ slabs show as bands', async () => {
    const figure = await figureAt('#scale figure', 'playing');
    expect(await figure.locator('.panel-title', { hasText: 'dashed: 16.7 ms, one 60 fps frame' }).count()).toBe(1);
    await figure.locator('.scale-n input[type=range]').fill('100000');
    const readout = figure.locator('.scale-readout');
    await expect.poll(() => readout.getAttribute('data-boxes'), { timeout: 30_000 }).toBe('100000');
    const canvas = figure.locator('canvas.sim');
    // 64 slabs or so at this size
    await expect
      .poll(async () => (await canvas.getAttribute('data-band-edges'))!.split(',').length, { timeout: 30_000 })
      .toBeGreaterThan(20);
    // the mean brightness of the rows (or columns) of every other band against the rest, away from the magnifier
    const ratio = await canvas.evaluate((c: HTMLCanvasElement) => {
      const edges = c.dataset.bandEdges!.split(',').map(Number);
      const across = c.dataset.bandAxis === '0';
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      const scale = c.width / 600;
      const sums = [0, 0];
      const counts = [0, 0];
      const along = across ? c.width : c.height;
      for (let k = 0; k < along; k++) {
        const at = k / scale;
        const band = edges.filter((e) => e <= at).length;
        for (let m = 0; m < (across ? c.height : c.width) / 8; m++) {
          const [x, y] = across ? [k, m] : [m, k]; // a strip along the top (or left) edge
          const o = 4 * (y * c.width + x);
          sums[band % 2]! += d[o]! + d[o + 1]! + d[o + 2]!;
          counts[band % 2]!++;
        }
      }
      const mean = (i: number): number => sums[i]! / counts[i]!;
      return Math.min(mean(0), mean(1)) / Math.max(mean(0), mean(1));
    });
    expect(ratio).toBeLessThan(0.8);
    await figure.locator('.scale-n input[type=range]').fill('10000');
  }, 60_000);
});

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('without sight, and by keyboard, on the %s', (name, device) => {
  let page: Page;
  beforeAll(async () => {
    page = await open(device);
  });
  afterAll(() => close(page));

  /** A drag by (dx, dy) from (x, y): the mouse's on the desktop, a finger's on the phone. */
  async function drag(x: number, y: number, dx: number, dy: number): Promise<void> {
    if (name === 'desktop') {
      await page.mouse.move(x, y);
      await page.mouse.down();
      for (let k = 1; k <= 5; k++) await page.mouse.move(x + (dx * k) / 5, y + (dy * k) / 5);
      await page.mouse.up();
      return;
    }
    const cdp = await page.context().newCDPSession(page);
    const at = (k: number): Array<{ x: number; y: number; id: number }> => [
      { x: x + (dx * k) / 8, y: y + (dy * k) / 8, id: 1 },
    ];
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
    for (let k = 1; k <= 8; k++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(k) });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await page.waitForTimeout(250);
    await cdp.detach();
  }

  async function built(figure: Locator): Promise<void> {
    await inSight(figure);
    await mounted(figure);
  }

  test('the endpoint strips of chapters 1, 8 and 12 have a table in words: each axis’s edges, sorted', async () => {
    for (const selector of ['#sim figure', '#prune figure >> nth=1', '#party figure']) {
      const figure = page.locator(selector);
      await built(figure);
      if ((await figure.getAttribute('data-state')) === 'playing') await figure.locator('[data-action=play]').click();
      await figure.locator('[data-action=step]').click(); // paused on a frame: the table and the balls agree
      const table = figure.locator('table.axis-text');
      expect(await table.locator('caption').textContent()).toContain('in sorted order');
      const view = figure.locator('.view');
      const balls = (await view.getAttribute('data-positions'))!.split(' ').map((p) => p.split(',').map(Number));
      const labels = (await figure.getAttribute('data-labels'))?.split(',');
      const names = balls.map((_, i) => labels?.[i] ?? String(i + 1));
      const rows = await table
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [tr.querySelector('th')!.textContent!, tr.querySelector('td')!.textContent!]),
        );
      expect(rows.map(([axis]) => axis)).toEqual(['x axis', 'y axis']);
      rows.forEach(([, edges], axis) => {
        const list = edges!.split(' ');
        expect(list.length, `${selector} ${axis}`).toBe(2 * balls.length);
        // each edge's place, from the ball positions the view drew: in order, each ball's "(" before its ")"
        const seen = new Set<string>();
        let last = -Infinity;
        for (const e of list) {
          const name = e.slice(1);
          const b = balls[names.indexOf(name)]!;
          expect(b, `${selector}: ball ${name}`).toBeDefined();
          const value = b[axis]! + (e[0] === '(' ? -b[2]! : b[2]!);
          // the strip is the engine's last update; a ball that bounced since has moved a few units from it
          expect(value, `${selector} ${axis}: ${e}`).toBeGreaterThanOrEqual(last - 12);
          last = value;
          expect(seen.has(e)).toBe(false);
          if (e[0] === ')') expect(seen.has(`(${name}`), `${selector}: ${name} opens before it closes`).toBe(true);
          seen.add(e);
        }
      });
    }
  }, 60_000);

  test('the controls say what they did: Step reads the counters, Play and Restart say so', async () => {
    const figure = page.locator('#naive figure').first();
    await built(figure);
    const said = figure.locator('.controls [aria-live=polite]');
    if ((await figure.getAttribute('data-state')) === 'playing') await figure.locator('[data-action=play]').click();
    expect(await said.textContent()).toMatch(/^Paused\. frame \d+/);
    await figure.locator('[data-action=step]').click();
    const stepped = (await said.textContent())!;
    expect(stepped).toMatch(/^Stepped\. frame \d+, intersects\(\) calls, last pass \d+/);
    // what it reads is what the counters show
    const first = figure.locator('.view [data-stat] dd').first();
    expect(stepped).toContain(`frame ${await first.textContent()}`);
    await figure.locator('[data-action=play]').click();
    expect(await said.textContent()).toBe('Playing.');
    await figure.locator('[data-action=restart]').click();
    expect(await said.textContent()).toBe('Restarted.');
  });

  test('every figure starts with a link that skips its controls: the next Tab goes on after the figure', async () => {
    const figures = await page.locator('figure.demo').all();
    expect(figures.length).toBeGreaterThan(20);
    for (const [i, figure] of figures.entries()) {
      const skip = figure.locator('a.skip-figure');
      await skip.focus();
      // the first tab stop of the figure, in sight while focused
      expect(
        await skip.evaluate(
          (a) => a.closest('figure')!.querySelector('a, button, input, select, canvas[tabindex="0"]') === a,
        ),
      ).toBe(true);
      expect(await skip.evaluate((a) => getComputedStyle(a).clipPath)).toBe('none');
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('End of the figure.');
      await page.keyboard.press('Tab');
      const inside = await figure.evaluate((f) => f.contains(document.activeElement));
      expect(inside, `figure ${i}: Tab after skipping`).toBe(false);
    }
  }, 120_000);

  test('chapter 16’s figures are driven on the canvas: the keys and a drag move their sliders', async () => {
    for (let k = 0; k < 3; k++) {
      const figure = page.locator('#next figure').nth(k);
      await built(figure);
      const canvas = figure.locator('canvas.sim');
      expect(await canvas.getAttribute('tabindex')).toBe('0');
      const hint = await canvas.getAttribute('aria-describedby');
      expect(await page.locator(`#${hint}`).textContent()).toMatch(/^Keys: /);
      const slider = figure.locator('input[type=range]').first();
      const [min, max, step] = await slider.evaluate((i: HTMLInputElement) => [i.min, i.max, i.step].map(Number));
      const value = async (): Promise<number> => Number(await slider.inputValue());
      await canvas.focus();
      await page.keyboard.press('Home');
      expect(await value()).toBe(min);
      await page.keyboard.press('ArrowRight');
      expect(await value()).toBe(min! + (step || 1));
      await page.keyboard.press('Shift+ArrowRight');
      expect(await value()).toBe(min! + 11 * (step || 1));
      // what changed is said
      expect(await figure.locator('.view > [aria-live=polite]').textContent()).toBeTruthy();
      await page.keyboard.press('End');
      expect(await value()).toBe(max);
      // a drag from the middle leftwards by half the canvas: half the slider's range down (a finger's too)
      const box = (await canvas.boundingBox())!;
      const y = box.y + box.height / 2;
      await drag(box.x + box.width * 0.75, y, -box.width / 2, 0);
      expect(Math.abs((await value()) - (max! - (max! - min!) / 2))).toBeLessThanOrEqual(2 * (step || 1));
      if (name === 'phone') {
        // a finger's vertical swipe scrolls the page and leaves the sliders alone
        const before = await value();
        const scrolled = await page.evaluate(() => window.scrollY);
        await drag(box.x + box.width / 2, y, 0, -120);
        expect(await value()).toBe(before);
        expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(scrolled + 20);
        await inSight(figure);
      }
      await canvas.blur();
    }
    // the squash figure's keys do what its slider does: End makes a tall column, swept along y
    const squash = page.locator('#next figure').nth(1);
    const canvas = squash.locator('canvas.sim');
    await canvas.focus();
    await page.keyboard.press('Home');
    await expect.poll(() => squash.locator('.squash-readout').getAttribute('data-sweep-axis')).toBe('0');
    await page.keyboard.press('End');
    await expect.poll(() => squash.locator('.squash-readout').getAttribute('data-sweep-axis')).toBe('1');
    await canvas.blur();
  }, 60_000);
});
