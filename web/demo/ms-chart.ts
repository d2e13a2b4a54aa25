// A rolling chart of milliseconds per update, one mark per update, on a log scale, in the benchmark's colours and
// shapes (the engine a blue disc, sorted JS a yellow triangle), under the budget of one 60 fps frame.
import type { Surface } from './draw.js';

export interface Sample {
  ms: number;
  /** Whose update: the engine or sorted JS. */
  js: boolean;
  /** The number of boxes updated. */
  n: number;
}

export const ENGINE_COLOR = '#5cf';
export const JS_COLOR = '#fc5';
/** The chart's key, for its title: the marks and the dashed line. */
export const MS_CHART_KEY = `<b style="color:${ENGINE_COLOR}">● sweep-prune</b> <b style="color:${JS_COLOR}">▲ sorted JS</b> · dashed: 16.7 ms, one 60 fps frame`;
const MS_MIN = 0.01;
const MS_MAX = 1000;

export function drawMsChart(g: Surface, samples: readonly Sample[], capacity: number): void {
  g.clear('#07080c');
  const { u, L, T, w, h } = g.plotArea(58, 8, 8, 8);
  const py = (ms: number): number =>
    T + h - (Math.log10(Math.min(MS_MAX, Math.max(ms, MS_MIN)) / MS_MIN) / Math.log10(MS_MAX / MS_MIN)) * h;
  for (let e = -2; e <= 3; e++) {
    if (u > 1.2 && e % 2 !== 0) continue; // a small screen: every other line, so the labels fit
    const y = py(10 ** e);
    g.line(L, y, L + w, y, '#222', 1);
    g.text(`${10 ** e} ms`, L - 6 * u, y, '#999', 11, 'right');
  }
  const budget = py(1000 / 60);
  // named in the chart's title (MS_CHART_KEY): a label in the plot is overprinted by the marks of every update
  g.line(L, budget, L + w, budget, '#888', 1, [4, 4]);
  const dx = w / Math.max(1, capacity - 1);
  const x0 = L + w - (samples.length - 1) * dx; // the newest update at the right edge
  samples.forEach((s, i) => {
    if (s.js) g.marker('triangle', x0 + i * dx, py(s.ms), 3.5 * u, JS_COLOR);
    else g.marker('disc', x0 + i * dx, py(s.ms), 2.2 * u, ENGINE_COLOR);
  });
}
