// Run the page's benchmark (largest N 100 000) in headless Chromium and print its results as the reference run
// drawn faint under the reader's (web/demo/scenes/benchmark-reference.ts):
//   node web/scripts/bench-reference.mjs <url of the page, e.g. a `npm start` server> "<machine description>"
import { launchChromium } from './chromium.mjs';

const [url, machine = 'this machine'] = process.argv.slice(2);
if (!url) throw new Error('usage: bench-reference.mjs <url> "<machine>"');
const ctx = await launchChromium({
  viewport: { width: 1100, height: 800 },
});
const page = ctx.pages()[0] ?? (await ctx.newPage());
await page.goto(url);
await page.waitForSelector('html[data-ready=true]');
const figure = page.locator('#benchmark figure');
await figure.scrollIntoViewIfNeeded();
await figure.locator('select').selectOption('100000');
await figure.locator('[data-action=play]').click();
await page.waitForSelector('#benchmark table[data-done=true]', { timeout: 600_000 });
const rows = (await figure.locator('tbody tr').allInnerTexts()).map((r) => r.split('\t'));
const version =
  ctx.browser()?.version() ?? (await page.evaluate(() => navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1] ?? ''));
await ctx.close();
const methods = ['naive', 'sorted', 'swaps', 'wasm'];
const out = methods.map((m, k) => {
  const pts = rows
    .filter((r) => Number(r[k + 1]) >= 0 && r[k + 1] !== 'skipped')
    .map((r) => `[${r[0].replace(/,/g, '')}, ${Number(r[k + 1])}]`);
  return `  ${m}: [${pts.join(', ')}],`;
});
console.log(`export const REFERENCE_MACHINE = '${machine}, headless Chromium ${version}';\n`);
console.log(
  `export const REFERENCE: Record<'naive' | 'sorted' | 'swaps' | 'wasm', ReadonlyArray<readonly [number, number]>> = {\n${out.join('\n')}\n};`,
);
