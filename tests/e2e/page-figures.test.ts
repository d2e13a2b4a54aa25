// The demo page's figures that compare, in real Chromium on a desktop (1100 px) and an emulated phone (390 px at DPR
// 3): chapter 17 runs the real phaser and matter-js packages twice, on their own broadphases and on sweep-prune's
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
import { mounted, serveDemo } from './demo-server.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const ENGINE_URL = /\/(phaser|matter-js)\.js|adapters\/(phaser|matter)\//;

let server: { url: string; stop: () => void } | undefined;
beforeAll(async () => {
  server = await serveDemo();
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
        const verdict = (await figure.locator('.engines-verdict').textContent()) ?? '';
        expect(verdict).toMatch(/^the same collisions and the same bodies at every one of the \d+ steps; /);
        const ratio = Number(await figure.locator('.engines-verdict').getAttribute('data-ratio'));
        // the sentence names the side that was faster, as measured
        if (ratio >= 1.05) expect(verdict).toContain('faster');
        else if (ratio <= 1 / 1.05) expect(verdict).toContain('slower');
        else expect(verdict).toContain('about as long');
      }
      expect(requests.some((u) => u.includes('matter'))).toBe(true);
      expect(errors).toEqual([]);
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
