// What the demo page costs a phone, measured in headless Chromium on the production build:
//   node web/scripts/page-metrics.mjs [--width 390] [--height 844] [--dpr 3] [--desktop] [--speed 2000] [--cpu 1]
// Prints canvas backing-store bytes (at load, the most at once while scrolling, and at the end), the time until
// the first screen is interactive with the long tasks before it, and the frame rate of a scroll through the whole
// page (per chapter). Phone emulation (touch, mobile viewport) unless --desktop; --cpu 4 runs the page's CPU four
// times slower (Chromium's CPU throttling), closer to a mid-range phone. Numbers vary with the machine's
// load: compare runs made side by side.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const width = opt('width', 390);
const height = opt('height', 844);
const dpr = opt('dpr', 3);
const speed = opt('speed', 2000); // scroll speed, CSS px per second
const phone = !args.includes('--desktop');
const cpu = opt('cpu', 1);

// build the page once into a temporary directory and serve it
const out = mkdtempSync(join(tmpdir(), 'demo-metrics-'));
await new Promise((resolve, reject) => {
  const build = spawn(
    join(root, 'node_modules/.bin/vite'),
    ['build', '--config', join(root, 'web/vite.config.ts'), '--outDir', out, '--emptyOutDir', '--logLevel', 'error'],
    { cwd: root, stdio: 'inherit' },
  );
  build.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`vite build exited ${code}`))));
});
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm' };
const server = createServer((req, res) => {
  const path = normalize(join(out, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
  const file = path.endsWith('/') ? join(path, 'index.html') : path;
  try {
    if (!file.startsWith(out) || !statSync(file).isFile()) throw new Error('not found');
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

const context = await launchChromium({
  viewport: { width, height },
  deviceScaleFactor: dpr,
  isMobile: phone,
  hasTouch: phone,
});
const page = context.pages()[0] ?? (await context.newPage());
const errors = [];
if (cpu > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: cpu });
page.on('pageerror', (e) => errors.push(e.message));
page.on('console', (m) => {
  if (m.type() === 'error') errors.push(m.text());
});
await page.addInitScript(() => {
  const w = /** @type {any} */ (window);
  w.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  // when the page says it is ready (data-ready on <html>)
  new MutationObserver((_, obs) => {
    if (document.documentElement.dataset.ready) {
      w.__ready = performance.now();
      obs.disconnect();
    }
  }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-ready'] });
});

const canvasBytes = () =>
  page.evaluate(() => [...document.querySelectorAll('canvas')].reduce((s, c) => s + c.width * c.height * 4, 0));

await page.goto(url);
await page.waitForSelector('html[data-ready=true]', { timeout: 60_000 });
await page.waitForTimeout(2500); // let the first screen settle; long tasks in this window still count
const start = await page.evaluate(() => {
  const w = /** @type {any} */ (window);
  const tasks = w.__longTasks;
  const ready = w.__ready ?? 0;
  // interactive: ready, and no long task running after it (the end of the last long task in the first 2.5 s)
  const lastEnd = tasks.reduce((m, t) => Math.max(m, t.start + t.duration), 0);
  return { ready, interactive: Math.max(ready, lastEnd), tasks };
});
const bytesAtLoad = await canvasBytes();

// scroll through the whole page at a steady speed, one step per animation frame, and time every frame
const scroll = await page.evaluate(async (pxPerSecond) => {
  const sections = [...document.querySelectorAll('main section')];
  const chapterAt = () => {
    const mid = window.innerHeight / 2;
    const s = sections.find((x) => {
      const r = x.getBoundingClientRect();
      return r.top <= mid && r.bottom > mid;
    });
    return s ? s.id : '';
  };
  const bytes = () => [...document.querySelectorAll('canvas')].reduce((s, c) => s + c.width * c.height * 4, 0);
  window.scrollTo({ top: 0, behavior: 'instant' });
  await new Promise((r) => setTimeout(r, 300));
  const end = document.documentElement.scrollHeight - window.innerHeight;
  const w = /** @type {any} */ (window);
  const tasksBefore = w.__longTasks.length;
  const frames = [];
  let maxBytes = bytes();
  await new Promise((resolve) => {
    let t0 = 0;
    let last = 0;
    const tick = (now) => {
      if (!t0) {
        t0 = last = now;
        requestAnimationFrame(tick);
        return;
      }
      frames.push({ dt: now - last, chapter: chapterAt() });
      last = now;
      const y = Math.min(end, ((now - t0) / 1000) * pxPerSecond);
      window.scrollTo({ top: y, behavior: 'instant' }); // the page scrolls smoothly by default
      if (frames.length % 10 === 0) maxBytes = Math.max(maxBytes, bytes());
      if (y >= end) resolve(undefined);
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  return { frames, maxBytes, endBytes: bytes(), tasks: w.__longTasks.slice(tasksBefore).map((t) => t.duration) };
}, speed);

const fps = (fs) => (fs.length * 1000) / fs.reduce((s, f) => s + f.dt, 0);
const byChapter = new Map();
for (const f of scroll.frames) {
  if (!byChapter.has(f.chapter)) byChapter.set(f.chapter, []);
  byChapter.get(f.chapter).push(f);
}
const mb = (b) => `${(b / 1e6).toFixed(1)} MB`;
const longest = start.tasks.reduce((m, t) => Math.max(m, t.duration), 0);
console.log(
  `viewport ${width}x${height} at DPR ${dpr}${phone ? ', phone emulation (touch, mobile)' : ''}` +
    `${cpu > 1 ? `, CPU ${cpu}x slower` : ''}`,
);
console.log(
  `canvas backing stores: ${mb(bytesAtLoad)} at load, ${mb(scroll.maxBytes)} at most while scrolling, ${mb(scroll.endBytes)} at the end`,
);
console.log(
  `first screen: ready ${start.ready.toFixed(0)} ms, interactive ${start.interactive.toFixed(0)} ms; ` +
    `${start.tasks.length} long tasks, longest ${longest.toFixed(0)} ms (${start.tasks.map((t) => t.duration.toFixed(0)).join(', ') || 'none'})`,
);
console.log(
  `scroll at ${speed} px/s: ${fps(scroll.frames).toFixed(1)} fps average over ${scroll.frames.length} frames, ` +
    `${scroll.frames.filter((f) => f.dt > 34).length} frames over 34 ms; ${scroll.tasks.length} long tasks, longest ` +
    `${Math.max(0, ...scroll.tasks).toFixed(0)} ms`,
);
console.log(
  'per chapter: ' +
    [...byChapter]
      .filter(([k]) => k)
      .map(([k, fs]) => `${k} ${fps(fs).toFixed(1)}`)
      .join(', '),
);
const mounts = await page.evaluate(() =>
  performance
    .getEntriesByType('measure')
    .filter((m) => m.name.startsWith('mount '))
    .map((m) => [m.name.slice(6), m.duration]),
);
const slowest = new Map();
for (const [id, ms] of mounts) slowest.set(id, Math.max(slowest.get(id) ?? 0, ms));
console.log(
  `figures built: ${mounts.length}, slowest build per chapter (ms): ` +
    [...slowest].map(([id, ms]) => `${id} ${ms.toFixed(1)}`).join(', '),
);
if (errors.length) console.log('page errors:', errors);

await context.close();
server.close();
rmSync(out, { recursive: true, force: true });
