// SPDX-License-Identifier: MIT
// A worker thread of sweep-prune/threads (threads-pool.ts starts it, in Node with worker_threads, in browsers as a
// module Worker). It instantiates the engine over the shared memory, moves its stack pointer to the stack made for
// it, says it is ready, then waits on its mailbox (three words of the shared memory) for jobs: each names a pool,
// whose tasks it takes in spPool_Work until the pool is stopped, then it waits for the next. Plain JavaScript: Node
// runs it as it is, from the package and from the sources alike.
const nodeThreads = globalThis.process?.getBuiltinModule?.('worker_threads');
const port = nodeThreads?.parentPort ?? globalThis;

// The mailbox's first word (threads-pool.ts MAILBOX); the second and third hold the job's pool and worker index
const IDLE = 0;
const JOB = 1;
const EXIT = 2;

async function run({ module, memory, stackTop, mailbox }) {
  try {
    const instance = await WebAssembly.instantiate(module, { env: { memory } });
    const exports = instance.exports;
    // every instance starts on the stack of the first one; C runs on this worker's own from here
    exports.__stack_pointer.value = stackTop;
    const words = new Int32Array(memory.buffer, mailbox, 3);
    port.postMessage({ type: 'ready' });
    for (;;) {
      Atomics.wait(words, 0, IDLE);
      const state = Atomics.load(words, 0);
      if (state === EXIT) break;
      if (state !== JOB) continue;
      port.postMessage({ type: 'started' });
      exports.sp_pool_work(words[1], words[2]);
      Atomics.store(words, 0, IDLE);
      port.postMessage({ type: 'done' });
    }
  } catch (error) {
    port.postMessage({ type: 'error', message: String(error?.message ?? error) });
  }
}

if (nodeThreads?.parentPort) nodeThreads.parentPort.once('message', (data) => void run(data));
else globalThis.addEventListener('message', (event) => void run(event.data), { once: true });
