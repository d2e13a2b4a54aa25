// Screenshot a page in headless Chromium: node web/scripts/screenshot.mjs <url> <out.png> [waitMs] [width] [fullPage]
// Prints console errors. Used to look at the demo while working on it.
import { launchChromium } from './chromium.mjs';

const [url, out, wait = '1500', width = '1000', full = ''] = process.argv.slice(2);
const ctx = await launchChromium({
  viewport: { width: Number(width), height: 900 },
});
const page = await ctx.newPage();
page.on('console', (m) => {
  if (m.type() === 'error') console.log('console error:', m.text());
});
page.on('pageerror', (e) => console.log('page error:', e.message));
await page.goto(url);
await page.waitForTimeout(Number(wait));
await page.screenshot({ path: out, fullPage: full === 'full' });
await ctx.close();
console.log('wrote', out);
