// The benchmark's worker: loads an engine of its own (the threaded one only when the reader asks for more than one
// thread, so its module is fetched only then), then measures a slice at a time, when the page asks (one request in
// flight: a paused or scrolled-away figure stops asking, and the run waits).
import type { BenchState } from '../bench-run.js';

export type BenchRequest = { type: 'start'; sizes: number[]; threads: number } | { type: 'slice' };
export type BenchReply =
  { type: 'ready'; threads: number } | { type: 'state'; state: BenchState } | { type: 'error'; message: string };

const post = (m: BenchReply): void => postMessage(m);
let run: import('../bench-run.js').BenchmarkRun | undefined;
let starting: Promise<void> | undefined;

async function start(sizes: number[], threads: number): Promise<void> {
  if (threads > 1) await (await import('sweep-prune/threads')).init();
  else await (await import('sweep-prune')).init();
  const { BenchmarkRun } = await import('../bench-run.js');
  run = new BenchmarkRun(sizes, threads);
  // world.threads counts the threads running: the pool's workers take a moment to start (at most 5 s here)
  for (let t = 0; t < 100 && run.engineThreads < threads; t++) await new Promise((r) => setTimeout(r, 50));
  post({ type: 'ready', threads: run.engineThreads });
}

onmessage = async (e: MessageEvent<BenchRequest>) => {
  try {
    const m = e.data;
    if (m.type === 'start') starting = start(m.sizes, m.threads);
    else {
      await starting;
      post({ type: 'state', state: run!.slice() });
    }
  } catch (err) {
    post({ type: 'error', message: (err as Error).message ?? String(err) });
  }
};
