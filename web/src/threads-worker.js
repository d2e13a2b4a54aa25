// SPDX-License-Identifier: MIT
// A worker thread of sweep-prune/threads (threads-pool.ts starts it, in Node with worker_threads, in browsers as a
// module Worker). It instantiates the engine over the shared memory, moves its stack pointer to the stack made for
// it, and takes tasks of the pool's jobs in spPool_Work until the pool is stopped. Plain JavaScript: Node runs it
// as it is, from the package and from the sources alike.
const nodeThreads = globalThis.process?.getBuiltinModule?.('worker_threads');
const port = nodeThreads?.parentPort ?? globalThis;

async function run({ module, memory, pool, worker, stackTop }) {
  try {
    const instance = await WebAssembly.instantiate(module, { env: { memory } });
    const exports = instance.exports;
    // every instance starts on the stack of the first one; C runs on this worker's own from here
    exports.__stack_pointer.value = stackTop;
    port.postMessage({ type: 'started' });
    exports.sp_pool_work(pool, worker);
    port.postMessage({ type: 'done' });
  } catch (error) {
    port.postMessage({ type: 'error', message: String(error?.message ?? error) });
  }
}

if (nodeThreads?.parentPort) nodeThreads.parentPort.once('message', (data) => void run(data));
else globalThis.addEventListener('message', (event) => void run(event.data), { once: true });
