import { init, World } from 'sweep-prune';

await init();

const canvas = document.querySelector<HTMLCanvasElement>('#boxes')!;
const stats = document.querySelector<HTMLElement>('#stats')!;
const ctx = canvas.getContext('2d')!;
const W = canvas.width;
const H = canvas.height;

const world = new World({ dimensions: 2 });
const n = 40;
const boxes = Array.from({ length: n }, () => {
  const w = 20 + Math.random() * 40;
  const h = 20 + Math.random() * 40;
  const x = Math.random() * (W - w);
  const y = Math.random() * (H - h);
  return { x, y, w, h, vx: (Math.random() - 0.5) * 3, vy: (Math.random() - 0.5) * 3, id: 0 };
});
for (const b of boxes) b.id = world.addBox([b.x, b.y], [b.x + b.w, b.y + b.h]);

function frame(): void {
  const bounds = world.bounds; // one view, written in place: no call per box
  for (const b of boxes) {
    b.x += b.vx;
    b.y += b.vy;
    if (b.x < 0 || b.x + b.w > W) b.vx = -b.vx;
    if (b.y < 0 || b.y + b.h > H) b.vy = -b.vy;
    const o = world.offsetOf(b.id);
    bounds[o] = b.x;
    bounds[o + 1] = b.y;
    bounds[o + 2] = b.x + b.w;
    bounds[o + 3] = b.y + b.h;
  }
  const t0 = performance.now();
  world.update();
  const ms = performance.now() - t0;

  const hit = new Set<number>();
  const pairs = world.pairs;
  for (let i = 0; i < pairs.length; i++) hit.add(pairs[i]!);
  const byId = new Map(boxes.map((b) => [b.id, b]));
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, W, H);
  for (const b of boxes) {
    ctx.strokeStyle = hit.has(b.id) ? '#f55' : '#8ac';
    ctx.lineWidth = 2;
    ctx.strokeRect(b.x, b.y, b.w, b.h);
  }
  ctx.strokeStyle = '#fd5';
  ctx.beginPath();
  for (let i = 0; i < pairs.length; i += 2) {
    const a = byId.get(pairs[i]!)!;
    const b = byId.get(pairs[i + 1]!)!;
    ctx.moveTo(a.x + a.w / 2, a.y + a.h / 2);
    ctx.lineTo(b.x + b.w / 2, b.y + b.h / 2);
  }
  ctx.stroke();
  const c = world.counters;
  stats.textContent = `${n} boxes · ${c.pairs} pairs · began ${c.began} · ended ${c.ended} · swaps ${c.swaps} · tests ${c.overlapTests} · update ${ms.toFixed(3)} ms`;
  stats.dataset.pairs = String(c.pairs);
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
