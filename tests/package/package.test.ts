// The published package, as users get it: build dist/, `npm pack`, install the tarball offline into a fresh
// project (tests/package/app/), then use it from Node (ESM, CommonJS, the separate-.wasm entry), from a Vite app
// (dev server and production build) and a page with no bundler in Chromium, and type-check a TypeScript consumer.
// The package is staged in a temp dir so that concurrent runs never share dist/.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readmeExamples, type Example } from './readme-examples';
import { readmeSizes, type Measured } from './readme-sizes';
import { serveStatic } from './static-server';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const viteJs = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// the engine with its queries, bulk calls and index view; a budget, raised only with a reason in the commit
const WASM_LIMIT = 80 * 1024;

// what scene.mjs returns when every check passes (pairs is checked separately)
const PASSED = {
  world: true,
  moved: true,
  events: true,
  pruneJuice: true,
  errorCode: 'InvalidBounds',
  initialized: true,
  defaultExport: true,
};

let tmp: string;
let app: string;
let packed: {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number; mode: number }[];
};

function run(command: string, args: string[], cwd: string): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'sweep-prune-package-'));
  // stage: package.json, README, LICENSE, docs/ and a fresh dist/, packed with the package's own "files"
  const stage = join(tmp, 'stage');
  mkdirSync(stage);
  for (const file of ['package.json', 'README.md', 'LICENSE']) copyFileSync(join(root, file), join(stage, file));
  cpSync(join(root, 'docs'), join(stage, 'docs'), { recursive: true });
  run(process.execPath, [join(root, 'web', 'scripts', 'build.mjs'), '--out', join(stage, 'dist')], root);
  const json = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], stage);
  packed = JSON.parse(json)[0];

  // a fresh project with only the tarball installed, offline
  app = join(tmp, 'app');
  cpSync(join(root, 'tests', 'package', 'app'), app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const scene = readFileSync(join(app, 'scene.mjs'), 'utf8');
  writeFileSync(
    join(app, 'scene.cjs'),
    scene.replace('export function runScene', 'function runScene') + 'module.exports = { runScene };\n',
  );
  // plain.html: index.html plus an import map, for browsers with no bundler
  const importMap = {
    imports: {
      'sweep-prune': './node_modules/sweep-prune/dist/index.js',
      'sweep-prune/wasm': './node_modules/sweep-prune/dist/wasm-entry.js',
      'sweep-prune/threads': './node_modules/sweep-prune/dist/threads.js',
    },
  };
  const index = readFileSync(join(app, 'index.html'), 'utf8');
  writeFileSync(
    join(app, 'plain.html'),
    index.replace('</head>', `<script type="importmap">${JSON.stringify(importMap)}</script>\n</head>`),
  );
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', join(tmp, packed.filename)], app);
  // the physics engines, the optional peers of sweep-prune/p2 and sweep-prune/cannon, as the repo has them
  for (const engine of ['p2-es', 'cannon-es'])
    cpSync(join(root, 'node_modules', engine), join(app, 'node_modules', engine), { recursive: true });
}, 60_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the tarball', () => {
  test('holds the ES modules, the CommonJS copy, the .d.ts files, the wasm, the license and docs, nothing else', () => {
    const paths = packed.files.map((f) => f.path);
    for (const p of [
      'package.json',
      'README.md',
      'LICENSE',
      'docs/matter.md',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/wasm-entry.js',
      'dist/wasm-entry.d.ts',
      'dist/generated/sweep_prune.wasm',
      'dist/threads.js',
      'dist/threads.d.ts',
      'dist/threads-worker.js',
      'dist/generated/sweep_prune_threads.wasm',
      'dist/cjs/index.js',
      'dist/cjs/index.d.ts',
      'dist/cjs/package.json',
      'dist/adapters/p2/index.js',
      'dist/adapters/p2/index.d.ts',
      'dist/adapters/cannon/index.js',
      'dist/adapters/cannon/index.d.ts',
      'dist/cjs/adapters/p2/index.js',
      'dist/cjs/adapters/cannon/index.js',
      'dist/adapters/matter/index.js',
      'dist/adapters/matter/index.d.ts',
      'dist/cjs/adapters/matter/index.js',
      'dist/adapters/phaser/index.js',
      'dist/adapters/phaser/index.d.ts',
      'dist/cjs/adapters/phaser/index.js',
      'dist/cjs/adapters/phaser/index.d.ts',
      'dist/adapters/planck/index.js',
      'dist/adapters/planck/index.d.ts',
      'dist/cjs/adapters/planck/index.js',
      'dist/cjs/adapters/planck/index.d.ts',
    ]) {
      expect(paths).toContain(p);
    }
    const top = ['package.json', 'README.md', 'LICENSE'];
    expect(paths.filter((p) => !p.startsWith('dist/') && !/^docs\/[^/]+\.md$/.test(p) && !top.includes(p))).toEqual([]);
    expect(paths.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]);
  });

  test('no file of the tarball is executable: the wasm and the scripts are data, read or imported', () => {
    expect(packed.files.every((f) => typeof f.mode === 'number')).toBe(true); // npm pack --json reports each mode
    const executable = packed.files.filter((f) => (f.mode & 0o111) !== 0).map((f) => `${f.path} ${f.mode.toString(8)}`);
    expect(executable).toEqual([]);
  });

  test(`keeps the wasm under ${WASM_LIMIT / 1024} KB`, () => {
    const wasm = packed.files.find((f) => f.path === 'dist/generated/sweep_prune.wasm')!;
    console.log(
      `package: ${packed.filename} packed ${(packed.size / 1024).toFixed(1)} KB, unpacked ` +
        `${(packed.unpackedSize / 1024).toFixed(1)} KB, ${packed.files.length} files; wasm ${(wasm.size / 1024).toFixed(1)} KB`,
    );
    expect(wasm.size).toBeLessThan(WASM_LIMIT);
  });

  test('the installed package has the MIT license and the metadata package.json states', () => {
    const installed = join(app, 'node_modules', 'sweep-prune');
    const license = readFileSync(join(installed, 'LICENSE'), 'utf8');
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} sweep-prune contributors\n/);
    expect(license).toContain('THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND');
    const meta = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    expect(meta).toMatchObject({ name: 'sweep-prune', license: 'MIT', type: 'module', sideEffects: false });
    expect(meta.description).toMatch(/broadphase/);
    expect(meta.keywords).toContain('broadphase');
    expect(meta.engines.node).toBe('>=18');
    expect(meta.dependencies).toBeUndefined(); // no runtime dependencies, as the README says
  });

  test('every relative link in the README and the shipped docs leads to a file in the tarball', () => {
    const paths = new Set(packed.files.map((f) => f.path));
    const installed = join(app, 'node_modules', 'sweep-prune');
    const broken: string[] = [];
    let links = 0;
    for (const doc of [...paths].filter((p) => p.endsWith('.md'))) {
      const text = readFileSync(join(installed, doc), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target!) || target!.startsWith('#')) continue; // absolute URL, same page
        links++;
        const path = normalize(join(dirname(doc), target!.split('#')[0]!));
        if (!paths.has(path)) broken.push(`${doc}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
    expect(links).toBeGreaterThan(10);
  });

  test('the README states every size as measured (within 5%), and the supported Node version', () => {
    const fileSize = (path: string) => packed.files.find((f) => f.path === path)!.size;
    // a Vite production build of a page per entry (tests/package/app/size/), less the page without the package
    const build = (name: string) => {
      const out = join(tmp, `size-${name}`);
      const page = '<!doctype html><html><body><script type="module" src="./main.js"></script></body></html>';
      writeFileSync(join(app, 'size', name, 'index.html'), page);
      run(process.execPath, [viteJs, 'build', join('size', name), '--outDir', out, '--logLevel', 'warn'], app);
      const assets = readdirSync(join(out, 'assets')).map((f) => [f, readFileSync(join(out, 'assets', f))] as const);
      const sum = (ext: string, size: (b: Buffer) => number) =>
        assets.filter(([f]) => f.endsWith(ext)).reduce((n, [, b]) => n + size(b), 0);
      return {
        js: sum('.js', (b) => b.length),
        jsGzip: sum('.js', (b) => gzipSync(b).length),
        wasmGzip: sum('.wasm', (b) => gzipSync(b).length),
      };
    };
    const none = build('none');
    const entry = build('default');
    const wasmEntry = build('wasm');
    const measured: Measured = {
      packed: packed.size,
      unpacked: packed.unpackedSize,
      wasm: fileSize('dist/generated/sweep_prune.wasm'),
      threadsWasm: fileSize('dist/generated/sweep_prune_threads.wasm'),
      defaultJs: entry.js - none.js,
      defaultGzip: entry.jsGzip - none.jsGzip,
      wasmEntryJs: wasmEntry.js - none.js,
      wasmGzip: wasmEntry.wasmGzip,
    };
    console.log(
      'sizes (kB): ' +
        Object.entries(measured)
          .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`)
          .join(', '),
    );
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const { figures, unchecked, missing } = readmeSizes(readme, measured);
    expect(missing, 'README sentences the size check looks for').toEqual([]);
    expect(unchecked, 'sizes in the README that tests/package/readme-sizes.ts does not check').toEqual([]);
    for (const f of figures) {
      // the figures are rounded; a release that changes one by more must say so
      expect(Math.abs(f.stated / f.measured - 1), `"${f.where}": measured ${f.measured.toFixed(1)} kB`).toBeLessThan(
        0.05,
      );
    }
    expect(figures.length).toBeGreaterThanOrEqual(10);
    const engines = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node as string;
    const node = /Node (\d+)\+ \(as\s+`engines` says\)/.exec(readme);
    expect(node?.[1], 'README: "Node N+ (as `engines` says)"').toBe(/>=\s*(\d+)/.exec(engines)?.[1]);
  });
});

describe('Node', () => {
  const node = (script: string) => JSON.parse(run(process.execPath, [script], app));

  test('import from the default entry (wasm embedded) gives the brute-force pairs', () => {
    const result = node('node-esm.mjs');
    expect(result).toMatchObject(PASSED);
    expect(result.pairs).toBeGreaterThan(100);
  });

  test('import from sweep-prune/wasm reads the .wasm file beside the module', () => {
    expect(node('node-wasm.mjs')).toMatchObject({ ...PASSED, wasmFile: true });
  });

  test('import from sweep-prune/threads: 2 threads give the 1-thread pairs, and the script exits by itself', () => {
    // killed (and failed) if the workers keep the process alive
    const out = execFileSync(process.execPath, ['node-threads.mjs'], { cwd: app, encoding: 'utf8', timeout: 15_000 });
    const result = JSON.parse(out);
    expect(result).toMatchObject({ ...PASSED, threaded: true, threads: 2, same: true });
    expect(result.pairs2).toBeGreaterThan(1000);
  });

  test('with no WebAssembly (node --jitless), init() rejects saying so and what the package needs', () => {
    const out = run(process.execPath, ['--jitless', 'node-no-wasm.mjs'], app);
    expect(JSON.parse(out)).toEqual({
      code: 'WasmLoadFailed',
      message:
        'init: the sweep-prune wasm module failed to load: this platform has no WebAssembly (Node run with --jitless?); ' +
        'sweep-prune needs WebAssembly with SIMD and bulk memory (Node 18+, Chrome 91+, Firefox 89+, Safari 16.4+)',
    });
  });

  test('require() gets the CommonJS build', () => {
    const result = node('node-cjs.cjs');
    expect(result).toMatchObject(PASSED);
    expect(result.resolved).toMatch(/node_modules\/sweep-prune\/dist\/cjs\/index\.js$/);
  });
});

describe("Node: the physics engines' broadphases", () => {
  const node = (script: string) => JSON.parse(run(process.execPath, [script], app));
  const stepped = { before: 'NotInitialized' };

  test('import from sweep-prune/p2 and sweep-prune/cannon steps p2-es and cannon-es worlds', () => {
    const result = node('node-adapters.mjs');
    expect(result).toMatchObject(stepped);
    expect(result.p2Pairs).toBeGreaterThan(0);
    expect(result.p2Pairs).toBe(result.sapPairs);
    expect(result.cannonContacts).toBeGreaterThan(0);
  });

  test("require() gets their CommonJS copies, initialised by require('sweep-prune')", () => {
    const result = node('node-adapters.cjs');
    expect(result).toMatchObject(stepped);
    expect(result.p2Pairs).toBeGreaterThan(0);
    expect(result.p2Pairs).toBe(result.sapPairs);
    expect(result.cannonContacts).toBeGreaterThan(0);
    expect(result.resolved).toMatch(/node_modules\/sweep-prune\/dist\/cjs\/adapters\/p2\/index\.js$/);
  });
});

describe('sweep-prune/matter', () => {
  // matter-js is an optional peer dependency: the consumer does not have it, the scripts are given this repo's copy
  const matter = join(root, 'node_modules', 'matter-js');

  test("import: the same collisions as matter-js's own detector at every step", () => {
    const result = JSON.parse(run(process.execPath, ['node-matter.mjs', matter], app));
    expect(result).toMatchObject({ same: true, region: 51, disposed: true });
    expect(result.collisions).toBeGreaterThan(1000);
    expect(result.resolved).toMatch(/node_modules\/sweep-prune\/dist\/adapters\/matter\/index\.js$/);
  });

  test("require: the CommonJS copy, sharing the engine loaded by require('sweep-prune')", () => {
    const result = JSON.parse(run(process.execPath, ['node-matter.cjs', matter], app));
    expect(result).toMatchObject({ same: true, region: 51, disposed: true });
    expect(result.resolved).toMatch(/node_modules\/sweep-prune\/dist\/cjs\/adapters\/matter\/index\.js$/);
  });
});

describe('import and require in one program: two copies, each with its own engine', () => {
  const matter = join(root, 'node_modules', 'matter-js');
  const planck = join(root, 'node_modules', 'planck');

  test("init() from an import, then require('sweep-prune/matter'): the error names the CommonJS copy and its init", () => {
    const result = JSON.parse(run(process.execPath, ['node-mixed.mjs', matter, planck], app));
    expect(result.error.code).toBe('NotInitialized');
    expect(result.error.message).toMatch(
      /^new SweepPruneDetector: the CommonJS copy of sweep-prune \(require\('sweep-prune\/matter'\), .*\) is not initialised/,
    );
    // every entry names itself: sweep-prune/planck too
    expect(result.planckError.code).toBe('NotInitialized');
    expect(result.planckError.message).toMatch(
      /^useSweepPrune: the CommonJS copy of sweep-prune \(require\('sweep-prune\/planck'\), .*\) is not initialised/,
    );
    expect(result.planckError.message).toContain("call `await require('sweep-prune').init()` once");
    expect(result.error.message).toContain("call `await require('sweep-prune').init()` once");
    expect(result.error.message).toMatch(/The ES module copy \(import from 'sweep-prune'\) is initialised/);
    expect(result.after).toBe(true); // following the message worked
  });

  test('init() from require, then import(): the error names the ES module copy and its init', () => {
    const result = JSON.parse(run(process.execPath, ['node-mixed.cjs'], app));
    expect(result.error.code).toBe('NotInitialized');
    expect(result.error.message).toMatch(/^new World: the ES module copy of sweep-prune .* is not initialised/);
    expect(result.error.message).toContain('call `await init()`');
    expect(result.error.message).toMatch(/The CommonJS copy \(require\('sweep-prune'\)\) is initialised/);
    expect(result.after).toBe(true);
  });
});

describe('sweep-prune/phaser', () => {
  // phaser is an optional peer dependency: the consumer does not have it, the scripts are given this repo's copy and
  // the repo's headless runner
  const args = [join(root, 'node_modules', 'phaser'), join(root, 'web', 'scripts', 'phaser-headless.mjs')];

  test('import: the same callbacks, in order, and bodies as Phaser with useTree: false every frame', () => {
    const result = JSON.parse(run(process.execPath, ['node-phaser.mjs', ...args], app));
    expect(result).toMatchObject({ same: true, stopped: true });
    expect(result.events).toBeGreaterThan(100);
    expect(result.resolved).toMatch(/node_modules\/sweep-prune\/dist\/adapters\/phaser\/index\.js$/);
  });

  test("require: the CommonJS copy, on Phaser's CommonJS build", () => {
    const result = JSON.parse(run(process.execPath, ['node-phaser.cjs', ...args], app));
    expect(result).toMatchObject({ same: true, stopped: true });
    expect(result.resolved).toMatch(/node_modules\/sweep-prune\/dist\/cjs\/adapters\/phaser\/index\.js$/);
  });
});

describe("the README's examples, run against the installed package", () => {
  const headless = join(root, 'web', 'scripts', 'phaser-headless.mjs');
  let examples: Promise<Example[]> | undefined; // the README read and its blocks made into programs once
  const readme = (): Promise<Example[]> => (examples ??= readmeExamples(readFileSync(join(root, 'README.md'), 'utf8')));
  const runExample = async (name: string): Promise<Record<string, unknown>> => {
    const example = (await readme()).find((e) => e.name === name);
    if (example === undefined) throw new Error(`the README has no ${name} example`);
    const file = join(app, `readme-${name.replace(/\W+/g, '-')}.mjs`);
    writeFileSync(file, example.program);
    // matter-js and planck are optional peers the consumer does not install: given the repo's copies, as p2-es and
    // cannon-es are
    for (const engine of ['matter-js', 'planck']) {
      const link = join(app, 'node_modules', engine);
      if (!existsSync(link)) symlinkSync(join(root, 'node_modules', engine), link, 'dir');
    }
    const out = run(process.execPath, [file, headless], app).trim().split('\n');
    return JSON.parse(out[out.length - 1]!);
  };

  test('every js and ts block of the README is one of the examples run here', async () => {
    const names = (await readme()).map((e) => e.name);
    expect(names).toEqual([
      'Usage',
      'the game loop',
      'sweep-prune/matter',
      'sweep-prune/p2',
      'sweep-prune/cannon',
      'sweep-prune/phaser',
      'sweep-prune/planck',
    ]);
  });

  test('Usage: the pairs its comments state are the pairs the world reports', async () => {
    const { claims } = (await runExample('Usage')) as { claims: { expr: string; same: boolean }[] };
    expect(claims.map((c) => c.expr)).toEqual(['world.pairs', 'world.ended']);
    for (const c of claims) expect(c, c.expr).toMatchObject({ same: true });
  });

  test('the game loop: the contacts that begin are the overlapping pairs its filters allow, walls never with walls', async () => {
    const result = (await runExample('the game loop')) as { began: string[]; oracle: string[] };
    expect(result.oracle.length).toBeGreaterThan(2);
    expect(result.began).toEqual(result.oracle);
  });

  test.each(['sweep-prune/matter', 'sweep-prune/p2', 'sweep-prune/cannon', 'sweep-prune/phaser', 'sweep-prune/planck'])(
    '%s: the snippet installs the broadphase, and two overlapping bodies of three meet',
    async (name) => {
      const result = await runExample(name);
      expect(result).toMatchObject({ ours: true, contacts: 1 });
      if (name === 'sweep-prune/phaser') expect(result.stopped).toBe(true); // arcade.stop() gave Phaser's tree back
      if (name === 'sweep-prune/planck') expect(result.stopped).toBe(true); // stopSweepPrune gave planck's back
    },
  );
});

describe('sweep-prune/planck', () => {
  // planck is an optional peer dependency: the consumer does not have it, the scripts are given this repo's copy
  const planck = join(root, 'node_modules', 'planck');

  test("import: bodies bit-identical to planck's own broadphase after 120 steps (one pair order)", () => {
    const result = JSON.parse(run(process.execPath, ['node-planck.mjs', planck], app));
    expect(result).toMatchObject({ same: true, found: 56, disposed: true });
    expect(result.contacts).toBeGreaterThan(50);
    expect(result.resolved).toMatch(/node_modules\/sweep-prune\/dist\/adapters\/planck\/index\.js$/);
  });

  test("require: the CommonJS copy, sharing the engine loaded by require('sweep-prune')", () => {
    const result = JSON.parse(run(process.execPath, ['node-planck.cjs', planck], app));
    expect(result).toMatchObject({ same: true, found: 56, disposed: true });
    expect(result.resolved).toMatch(/node_modules\/sweep-prune\/dist\/cjs\/adapters\/planck\/index\.js$/);
  });
});

describe('sweep-prune/box-intersect', () => {
  const node = (script: string) => JSON.parse(run(process.execPath, [script], app));
  const readme = [
    [0, 1],
    [0, 2],
    [1, 2],
  ];

  test('import: the default export, NotInitialized before init(), one engine with the root entry', () => {
    expect(node('node-box-intersect.mjs')).toEqual({ notInitialized: true, shared: true, pairs: readme, early: 2 });
  });

  test('require() gives the function itself, as box-intersect does', () => {
    const result = node('node-box-intersect.cjs');
    expect(result).toMatchObject({
      type: 'function',
      pairs: [
        [0, 0],
        [1, 1],
        [2, 2],
      ],
    });
    expect(result.resolved).toMatch(/node_modules\/sweep-prune\/dist\/cjs\/box-intersect-require\.js$/);
  });
});

describe('sweep-prune/rbush', () => {
  const node = (script: string) => JSON.parse(run(process.execPath, [script], app));

  test('import: the default export, NotInitialized before init(), one engine with the root entry', () => {
    expect(node('node-rbush.mjs')).toEqual({ notInitialized: true, shared: true, found: 2, pairs: 2, collides: false });
  });

  test('require() gives the class itself, which a subclass extends', () => {
    const result = node('node-rbush.cjs');
    expect(result).toMatchObject({ type: 'function', same: true, subclass: true, hits: 1 });
    expect(result.resolved).toMatch(/node_modules\/sweep-prune\/dist\/cjs\/rbush-require\.js$/);
  });

  test("the README's switch: detect-collisions' System then extends sweep-prune/rbush, and finds its collisions", () => {
    // detect-collisions is not a dependency of the package: the script is given this repo's copy
    const detectCollisions = join(root, 'node_modules', 'detect-collisions');
    const result = JSON.parse(run(process.execPath, ['node-rbush-detect-collisions.cjs', detectCollisions], app));
    // a box and a circle overlap (each reports the other), the far circle touches nothing; moved away, none
    expect(result).toEqual({ extends: true, collisions: 2, after: 0, bodies: 3 });
  });
});

describe('TypeScript', () => {
  test('a consumer using World and PruneJuice from both entries, ESM and CommonJS, type-checks', () => {
    // tsconfig: NodeNext, strict, skipLibCheck off; consumer.ts has @ts-expect-error lines, so `any` types would fail
    expect(() => run(bin('tsc'), ['-p', '.'], app)).not.toThrow();
  });

  test('a server project (lib ES2022, no DOM), with @types/node and with no types at all, type-checks', () => {
    const options = {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2022'],
      strict: true,
      noEmit: true,
      skipLibCheck: false,
    };
    const configs = {
      'tsconfig.node.json': { ...options, types: ['node'], typeRoots: [join(root, 'node_modules', '@types')] },
      'tsconfig.bare.json': { ...options, types: [] },
    };
    for (const [file, compilerOptions] of Object.entries(configs)) {
      writeFileSync(join(app, file), JSON.stringify({ compilerOptions, files: ['consumer-server.ts'] }));
      expect(() => run(bin('tsc'), ['-p', file], app), file).not.toThrow();
    }
  });

  test("a consumer of sweep-prune/phaser type-checks against Phaser's own types", () => {
    // the consumer does not install phaser: this program is given the repo's copy (its .d.ts alone are read)
    symlinkSync(join(root, 'node_modules', 'phaser'), join(app, 'node_modules', 'phaser'), 'dir');
    try {
      const config = join(app, 'tsconfig.phaser.json');
      writeFileSync(
        config,
        JSON.stringify({
          extends: './tsconfig.json',
          compilerOptions: { skipLibCheck: true },
          files: ['consumer-phaser.ts'],
        }),
      );
      expect(() => run(bin('tsc'), ['-p', config], app)).not.toThrow();
    } finally {
      rmSync(join(app, 'node_modules', 'phaser'));
    }
  });

  test.each(['p2', 'cannon'])(
    'a consumer of sweep-prune/%s type-checks (its engine in a program of its own)',
    (engine) => {
      // skipLibCheck: the engine's own .d.ts is not ours to check; @ts-expect-error lines fail if our types were any
      const config = join(app, `tsconfig.${engine}.json`);
      writeFileSync(
        config,
        JSON.stringify({
          extends: './tsconfig.json',
          compilerOptions: { skipLibCheck: true },
          files: [`consumer-${engine}.ts`],
        }),
      );
      expect(() => run(bin('tsc'), ['-p', config], app)).not.toThrow();
    },
  );
});

// ---- browsers ----

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${log()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up:\n${log()}`);
}

/** Start `vite <args>` in the app (the repo's vite binary, run by node so that kill() stops it). */
async function startVite(args: string[]): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [viteJs, ...args, '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    {
      cwd: app,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}/`;
  await waitFor(url, child, () => output);
  return { url, stop: () => child.kill() };
}

/**
 * A static file server: what a page with no bundler gets (import map to node_modules); `isolated` sends the two
 * headers of a cross-origin-isolated page.
 */
function startStatic(isolated = false): Promise<{ url: string; stop: () => void }> {
  return serveStatic((path) => join(app, path), isolated);
}

describe('browser (Chromium)', () => {
  let context: BrowserContext;
  const stops: (() => void)[] = [];

  beforeAll(async () => {
    context = await chromium.launchPersistentContext(mkdtempSync(join(tmp, 'chromium-')), {
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: CHROMIUM_ARGS,
    });
  }, 60_000);

  afterAll(async () => {
    stops.forEach((stop) => stop());
    await context?.close();
  });

  /** Load a page, wait for main.js to write its result; also report the .wasm requests and console errors. */
  async function visit(url: string) {
    const page = await context.newPage();
    const errors: string[] = [];
    const wasmRequests: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('response', (r) => {
      if (new URL(r.url()).pathname.endsWith('.wasm'))
        wasmRequests.push(`${r.status()} ${r.headers()['content-type']}`);
    });
    await page.goto(url);
    const text = await page.locator('#out').filter({ hasText: /\S/ }).textContent({ timeout: 20_000 });
    await page.close();
    return { result: JSON.parse(text!), errors, wasmRequests };
  }

  async function expectBothEntries(base: string): Promise<void> {
    const embedded = await visit(`${base}?entry=default`);
    expect(embedded.result).toMatchObject({ entry: 'default', ...PASSED });
    expect(embedded.wasmRequests).toEqual([]); // the bytes come with the JS
    expect(embedded.errors).toEqual([]);

    const separate = await visit(`${base}?entry=wasm`);
    expect(separate.result).toMatchObject({ entry: 'wasm', ...PASSED, pairs: embedded.result.pairs });
    expect(separate.wasmRequests).toEqual(['200 application/wasm']); // fetched and streamed
    expect(separate.errors).toEqual([]);

    // not cross-origin isolated: sweep-prune/threads falls back to the single-threaded module
    const threads = await visit(`${base}?entry=threads`);
    expect(threads.result).toMatchObject({ entry: 'threads', ...PASSED, pairs: embedded.result.pairs });
    expect(threads.result).toMatchObject({ threaded: false, threads: 1 });
    expect(threads.errors).toEqual([]);
  }

  test('a Vite production build (vite build + vite preview), no Vite config', async () => {
    run(process.execPath, [viteJs, 'build', '--logLevel', 'warn'], app);
    const server = await startVite(['preview']);
    stops.push(server.stop);
    await expectBothEntries(server.url);
  });

  test('the Vite dev server, no Vite config', async () => {
    const server = await startVite([]);
    stops.push(server.stop);
    await expectBothEntries(server.url);
  });

  test('a page with no bundler (import map to node_modules)', async () => {
    const server = await startStatic();
    stops.push(server.stop);
    await expectBothEntries(`${server.url}plain.html`);
  });

  test('sweep-prune/threads on a cross-origin-isolated page with no bundler: a world on 2 threads', async () => {
    const server = await startStatic(true);
    stops.push(server.stop);
    const { result, errors } = await visit(`${server.url}plain.html?entry=threads`);
    expect(result).toMatchObject({ entry: 'threads', ...PASSED, threaded: true, threads: 2 });
    expect(errors).toEqual([]);
  });
});
