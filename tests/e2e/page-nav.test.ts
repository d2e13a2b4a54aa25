// Finding one's way around the demo page in Chromium, on a desktop (1100 px) and a phone (390 px, DPR 3, touch):
// every contents link lands with its chapter's heading at the top on the first click, before the figures on the
// way are built and after; no task of the page takes over 200 ms in any mode of any figure; the small things a
// reader trips on; and what a screen reader or a keyboard is given.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DESKTOP, PHONE, openDemo, startDemoServer, type PageLog } from './demo-page';

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
