// Run with `node --jitless` (no WebAssembly): init() rejects with a message that says so.
import { init } from 'sweep-prune';

try {
  await init();
  console.log(JSON.stringify({ loaded: true }));
} catch (error) {
  console.log(JSON.stringify({ code: error.code, message: error.message }));
}
