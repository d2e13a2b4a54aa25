// Finding one's way around the demo page in Chromium, on a desktop (1100 px) and a phone (390 px, DPR 3, touch):
// every contents link lands with its chapter's heading at the top on the first click, before the figures on the
// way are built and after; no task of the page takes over 200 ms in any mode of any figure; the small things a
// reader trips on; and what a screen reader or a keyboard is given.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DESKTOP, PHONE, mounted, openDemo, startDemoServer, watchLongTasks, type PageLog } from './demo-page';

let server: { url: string; stop: () => void } | undefined;
const log: PageLog = { errors: [], requests: [] };
const opened: Array<{ context: BrowserContext; dir: string }> = [];

beforeAll(async () => {
  server = await startDemoServer();
});

afterAll(async () => {
  for (const { context, dir } of opened) {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
  server?.stop();
});

async function open(device: typeof DESKTOP | typeof PHONE): Promise<Page> {
  const dir = mkdtempSync(join(tmpdir(), 'chromium-'));
  const { context, page } = await openDemo(server!.url, dir, device, log);
  opened.push({ context, dir });
  return page;
}

/**
 * How far the chapter's heading stands from the top of the window, less the section's scroll-margin-top (1rem),
 * once a link's scroll has landed and the layout is still.
 */
async function offTop(page: Page, id: string): Promise<number> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.dataset.landing ?? ''), { timeout: 15_000 })
    .toBe('');
  return page.locator(`#${id} h3`).evaluate((h) => Math.abs(h.getBoundingClientRect().top - 16));
}

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('contents links on the %s', (name, device) => {
  let page: Page;
  beforeAll(async () => {
    page = await open(device);
  });

  test('every link lands with its chapter’s heading at the top, before and after the figures on the way are built', async () => {
    const ids = await page
      .locator('nav ol.toc a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')!.slice(1)));
    expect(ids.length).toBeGreaterThan(10);
    const click = async (id: string): Promise<void> => {
      const link = page.locator(`nav ol.toc a[href="#${id}"]`);
      if (name === 'phone') await link.tap();
      else await link.click();
    };
    for (const id of ids) {
      // a fresh page: no figure between the contents and the chapter has been built yet
      await page.goto(server!.url);
      await page.waitForSelector('html[data-ready=true]');
      const far = await page.locator(`#${id}`).evaluate((s) => s.getBoundingClientRect().top > 2 * innerHeight);
      if (far) expect(await page.locator(`#${id} figure.demo[data-mounted=true]`).count(), `#${id} unbuilt`).toBe(0);
      await click(id);
      expect(await offTop(page, id), `#${id}, first visit`).toBeLessThanOrEqual(1);
      expect(await page.evaluate(() => location.hash)).toBe(`#${id}`);
      // every figure on the way has been built now: back to the contents, and the same link again
      await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
      await click(id);
      expect(await offTop(page, id), `#${id}, second visit`).toBeLessThanOrEqual(1);
    }
    expect(log.errors).toEqual([]);
  }, 300_000);

  test('a page opened at a chapter’s address lands on it', async () => {
    await page.goto(`${server!.url}#party`);
    await page.waitForSelector('html[data-ready=true]');
    expect(await offTop(page, 'party')).toBeLessThanOrEqual(1);
  });
});

describe.each([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)('no task over 200 ms on the %s', (_, device) => {
  let page: Page;
  beforeAll(async () => {
    page = await open(device);
  });

  test('scrolled from the top of the page to the end, every figure built on the way', async () => {
    const longTasks = await watchLongTasks(page);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y < height; y += 400) {
      await page.mouse.wheel(0, 400);
      await page.waitForTimeout(100);
    }
    await page.waitForTimeout(1000);
    expect(await page.locator('figure.demo[data-mounted=true]').count()).toBeGreaterThan(0);
    expect(Math.max(0, ...(await longTasks()))).toBeLessThan(200);
  }, 120_000);

  test('chapter 14 at 100 000 boxes, with the engine and with the sorted-JS loop', async () => {
    const figure = page.locator('#scale figure');
    await figure.locator('canvas.sim').scrollIntoViewIfNeeded();
    await mounted(figure);
    const readout = figure.locator('.scale-readout');
    await figure.locator('.scale-n input[type=range]').fill('100000');
    await expect.poll(() => readout.getAttribute('data-boxes'), { timeout: 30_000 }).toBe('100000');
    const longTasks = await watchLongTasks(page);
    await page.waitForTimeout(6000);
    await figure.locator('[data-action=js]').click();
    await expect.poll(() => readout.getAttribute('data-mode')).toBe('js');
    // the sorted-JS loop runs: its updates reach the chart (one every second or so at this size)
    await expect
      .poll(async () => Number(await readout.getAttribute('data-update-ms')), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await page.waitForTimeout(8000);
    const tasks = await longTasks();
    expect(Math.max(0, ...tasks)).toBeLessThan(200);
    await figure.locator('[data-action=js]').click();
    await figure.locator('.scale-n input[type=range]').fill('10000'); // light again for the tests after this one
    expect(log.errors).toEqual([]);
  }, 120_000);
});
