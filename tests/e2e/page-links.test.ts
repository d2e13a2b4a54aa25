// The demo page's contents links in Chromium, on a desktop (1100 px) and a phone (390 px, DPR 3, touch): every link
// lands with its chapter's heading at the top on the first click, before the figures on the way are built and
// after, and so does a page opened at a chapter's address. A file of its own: its glides and holds are mostly
// waiting, which runs beside the other files.
import type { Page } from 'playwright-core';
import { test, type ExpectStatic } from 'vitest';
import { DESKTOP, PHONE, demoPages } from './demo-page';

const { log, open, close, url } = demoPages();

/**
 * How far the chapter's heading stands from the top of the window, less the section's scroll-margin-top (1rem),
 * once a link's scroll has landed and the layout is still.
 */
async function offTop(expect: ExpectStatic, page: Page, id: string): Promise<number> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.dataset.landing ?? ''), { timeout: 15_000 })
    .toBe('');
  return page.locator(`#${id} h3`).evaluate((h) => Math.abs(h.getBoundingClientRect().top - 16));
}

// the desktop and the phone at once, each in a browser of its own: the glides and holds are mostly waiting
test.concurrent.for([
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const)(
  'on the %s, every link lands with its chapter’s heading at the top, before and after the figures on the way are built, and so does a page opened at a chapter’s address',
  { timeout: 300_000 },
  async ([name, device], { expect }) => {
    const page = await open(device);
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
      await page.goto(url());
      await page.waitForSelector('html[data-ready=true]');
      const far = await page.locator(`#${id}`).evaluate((s) => s.getBoundingClientRect().top > 2 * innerHeight);
      if (far) expect(await page.locator(`#${id} figure.demo[data-mounted=true]`).count(), `#${id} unbuilt`).toBe(0);
      await click(id);
      expect(await offTop(expect, page, id), `#${id}, first visit`).toBeLessThanOrEqual(1);
      expect(await page.evaluate(() => location.hash)).toBe(`#${id}`);
      // every figure on the way has been built now: back to the contents, and the same link again
      await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
      await click(id);
      expect(await offTop(expect, page, id), `#${id}, second visit`).toBeLessThanOrEqual(1);
    }
    // a page opened at a chapter's address
    await page.goto(`${url()}#party`);
    await page.waitForSelector('html[data-ready=true]');
    expect(await offTop(expect, page, 'party'), '#party, opened at its address').toBeLessThanOrEqual(1);
    expect(log.errors).toEqual([]);
    await close(page);
  },
);
