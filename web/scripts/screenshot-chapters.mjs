// Screenshot every chapter of the demo at phone size (touch, mobile viewport) in headless Chromium:
//   node web/scripts/screenshot-chapters.mjs <url> <out-dir> [width=390] [dpr=2]
// Writes <out-dir>/00-header.png, one <nn>-<chapter id>.png per section and one per figure, and prints console errors and any
// element wider than the screen. Used to look at the page on a phone-sized screen while working on it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchChromium } from './chromium.mjs';

const [url, out, width = '390', dpr = '2'] = process.argv.slice(2);
if (!url || !out) throw new Error('usage: screenshot-chapters.mjs <url> <out-dir> [width] [dpr]');
mkdirSync(out, { recursive: true });
const ctx = await launchChromium({
  viewport: { width: Number(width), height: 844 },
  deviceScaleFactor: Number(dpr),
  isMobile: true,
  hasTouch: true,
});
const page = ctx.pages()[0] ?? (await ctx.newPage());
page.on('console', (m) => {
  if (m.type() === 'error') console.log('console error:', m.text());
});
page.on('pageerror', (e) => console.log('page error:', e.message));
await page.goto(url);
await page.waitForSelector('html[data-ready=true]');
await page.locator('main > header').screenshot({ path: join(out, '00-header.png') });
const ids = await page.locator('main section').evaluateAll((ss) => ss.map((s) => s.id));
for (const [i, id] of ids.entries()) {
  const section = page.locator(`#${id}`);
  await section.scrollIntoViewIfNeeded();
  for (const figure of await section.locator('figure.demo').all()) await figure.scrollIntoViewIfNeeded();
  await page.waitForTimeout(700); // built, drawn and animated for a moment
  const name = `${String(i + 1).padStart(2, '0')}-${id}`;
  await section.screenshot({ path: join(out, `${name}.png`) });
  // each figure on its own too, at full size (a long section is scaled down by image viewers)
  for (const [k, figure] of (await section.locator('figure.demo').all()).entries()) {
    await figure.screenshot({ path: join(out, `${name}-figure-${k + 1}.png`) });
  }
}
const wide = await page.evaluate(() => {
  const w = document.documentElement.clientWidth;
  return [...document.querySelectorAll('main *')]
    .filter((e) => e.getBoundingClientRect().right > w + 0.5 && !e.parentElement?.closest('pre, .panel, .stats-box'))
    .map((e) => `${e.tagName.toLowerCase()}.${e.className}`);
});
if (wide.length) console.log('wider than the screen:', wide.slice(0, 20));
await ctx.close();
console.log('wrote', ids.length + 1, 'screenshots to', out);
