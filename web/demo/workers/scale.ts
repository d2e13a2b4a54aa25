// Chapter 14's worker: the boxes, the engine and the sorted-JS loop live here, so that a slow step (the sorted-JS
// loop takes hundreds of milliseconds at 100 000 boxes) slows the figure's updates and never the page. The page
// asks for one step at a time and passes the buffers of an older step back, to be written again.
import { init } from 'sweep-prune';
import { ScaleSim, type ScaleMode, type StepBuffers, type StepResult } from '../scale-sim.js';

export type ScaleRequest =
  { type: 'build'; n: number } | { type: 'step'; mode: ScaleMode; chosen: number; buffers: StepBuffers | undefined };
export type ScaleReply =
  | { type: 'built'; n: number; side: number; sideY: number }
  | { type: 'step'; n: number; result: StepResult; buffers: StepBuffers }
  | { type: 'error'; message: string };

const ready = init();
let sim: ScaleSim | undefined;

function buffersFor(n: number, given: StepBuffers | undefined): StepBuffers {
  if (given && given.b.length === 4 * n) return given;
  return { b: new Float32Array(4 * n), start: new Uint32Array(n + 1), adj: new Uint32Array(8 * n) };
}

onmessage = async (e: MessageEvent<ScaleRequest>) => {
  const post = (m: ScaleReply, transfer: Transferable[] = []): void => postMessage(m, { transfer });
  try {
    await ready;
    const m = e.data;
    if (m.type === 'build') {
      sim?.dispose();
      sim = undefined;
      sim = new ScaleSim(m.n);
      post({ type: 'built', n: m.n, side: sim.boxes.side, sideY: sim.boxes.sideY });
    } else if (sim) {
      // a sorted-JS step rests between its slices, and a build may come in meanwhile: its reply names its own boxes
      const stepped = sim;
      const { result, out } = await stepped.step(m.mode, buffersFor(stepped.n, m.buffers), m.chosen);
      post({ type: 'step', n: stepped.n, result, buffers: out }, [out.b.buffer, out.start.buffer, out.adj.buffer]);
    }
  } catch (err) {
    post({ type: 'error', message: (err as Error).message ?? String(err) });
  }
};
