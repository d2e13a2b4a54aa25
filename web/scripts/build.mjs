// npm run build: the publishable package in dist/ (or --out DIR). Needs web/src/generated/ (web/scripts/setup.sh).
//   dist/*.js, *.d.ts         ES modules: index.js (wasm embedded), wasm-entry.js (loads generated/sweep_prune.wasm)
//   dist/generated/*.wasm     the engine, beside the module that fetches it
//   dist/threads.js, threads-worker.js, generated/sweep_prune_threads.wasm   sweep-prune/threads
//   dist/cjs/                 CommonJS copy of the default entry, for require('sweep-prune')
//   dist/adapters/, dist/cjs/adapters/   sweep-prune/p2, cannon, matter, phaser and planck (the physics engines' broadphases)
//   dist/box-intersect.js, dist/rbush.js and their CommonJS copies (require gives the function / the class itself)
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outIndex = process.argv.indexOf('--out');
const out = resolve(outIndex > 0 ? process.argv[outIndex + 1] : join(root, 'dist'));
const generated = join(root, 'web', 'src', 'generated');
const wasm = join(generated, 'sweep_prune.wasm');
if (
  !existsSync(wasm) ||
  !existsSync(join(generated, 'wasm-bytes.ts')) ||
  !existsSync(join(generated, 'sweep_prune_threads.wasm'))
) {
  console.error('build: web/src/generated/ is missing; run `bash web/scripts/setup.sh` first (npm run build does)');
  process.exit(1);
}

function tsc(project, outDir, ...extra) {
  const result = spawnSync(
    join(root, 'node_modules', '.bin', 'tsc'),
    ['-p', join(root, 'web', project), '--outDir', outDir, ...extra],
    {
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
}

rmSync(out, { recursive: true, force: true });
tsc('tsconfig.build.json', out);
tsc('tsconfig.cjs.json', join(out, 'cjs'));
// sweep-prune/cannon: its own program (cannon-es and p2-es declare the same global module names)
tsc('tsconfig.build-cannon.json', out);
tsc('tsconfig.build-cannon.json', join(out, 'cjs'), '--module', 'CommonJS');
// the root package.json says "type": "module"; this makes dist/cjs/*.js (and their .d.ts) CommonJS
writeFileSync(join(out, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
// the CommonJS copy says so in its NotInitialized messages (src/copy.ts)
const copyJs = join(out, 'cjs', 'copy.js');
const copy = readFileSync(copyJs, 'utf8');
if (!copy.includes(`'ES module'`)) {
  console.error(`build: ${copyJs} does not set COPY = 'ES module'; update this step with src/copy.ts`);
  process.exit(1);
}
writeFileSync(copyJs, copy.replaceAll(`'ES module'`, `'CommonJS'`));
// require('sweep-prune/box-intersect') is the function itself, as require('box-intersect') is
writeFileSync(
  join(out, 'cjs', 'box-intersect-require.js'),
  `'use strict';
const m = require('./box-intersect.js');
module.exports = Object.assign(m.boxIntersect, { boxIntersect: m.boxIntersect, default: m.boxIntersect, init: m.init, isInitialized: m.isInitialized });
`,
);
writeFileSync(
  join(out, 'cjs', 'box-intersect-require.d.ts'),
  `import { boxIntersect as fn, init, isInitialized } from './box-intersect.js';
declare const boxIntersect: typeof fn & { boxIntersect: typeof fn; default: typeof fn; init: typeof init; isInitialized: typeof isInitialized };
export = boxIntersect;
`,
);
// require('sweep-prune/rbush') is the class itself, as require('rbush') was before rbush 4 (and can be extended)
writeFileSync(
  join(out, 'cjs', 'rbush-require.js'),
  `'use strict';
const m = require('./rbush.js');
module.exports = Object.assign(m.default, { default: m.default, init: m.init, isInitialized: m.isInitialized });
`,
);
writeFileSync(
  join(out, 'cjs', 'rbush-require.d.ts'),
  `import Class, { init, isInitialized } from './rbush.js';
declare const RBush: typeof Class & { default: typeof Class; init: typeof init; isInitialized: typeof isInitialized };
type RBush<T = any> = Class<T>;
export = RBush;
`,
);
// Data, never programs: a linker marks its output executable (wasm-ld does), and a copy keeps the mode
function copyData(from, to) {
  copyFileSync(from, to);
  chmodSync(to, 0o644);
}
mkdirSync(join(out, 'generated'), { recursive: true });
copyData(wasm, join(out, 'generated', 'sweep_prune.wasm'));
// sweep-prune/threads: the threaded module, and the worker script its workers run (plain JS, beside threads.js)
copyData(join(generated, 'sweep_prune_threads.wasm'), join(out, 'generated', 'sweep_prune_threads.wasm'));
copyData(join(root, 'web', 'src', 'threads-worker.js'), join(out, 'threads-worker.js'));

function bytesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (sum, e) => sum + (e.isDirectory() ? bytesUnder(join(dir, e.name)) : statSync(join(dir, e.name)).size),
    0,
  );
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`build: ${relative(process.cwd(), out) || '.'}/ ${kb(bytesUnder(out))}, wasm ${kb(statSync(wasm).size)}`);
