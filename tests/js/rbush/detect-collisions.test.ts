// detect-collisions' own test suite (its src/**/*.spec.js at tag v9.27.6, the npm version installed, MIT: see
// detect-collisions/LICENSE), run twice on the npm package: once as published, and once with the rbush it bundles
// (dist/external/rbush.js, which its `System` extends) resolved to sweep-prune/rbush. The spec files are kept as its
// repository has them; each is run with `require` of the library ('.', '../src', '../../src') giving the package,
// and jest's globals given by vitest. circle.spec.js takes `describe` from node:test, where jest never collects
// its tests; vitest's describe is given for it, so its tests run in both suites.
// Not run: src/demo/stress.spec.js and src/demo/tank.spec.js, which load the demo page's scripts (not in the package).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it, test, vi } from 'vitest';
import RBush from '../../../web/src/rbush.js';
import { init } from '../../../web/src/index.js';

const require = createRequire(import.meta.url);
const specs = fileURLToPath(new URL('./detect-collisions/src/', import.meta.url));
const LIBRARY = new Set(['.', '../src', '../../src']);

beforeAll(() => init());

/** The package as published, and a second copy of it whose bundled rbush is sweep-prune/rbush. */
function loadBoth(): { own: unknown; ours: unknown; ownRBush: unknown } {
  const dist = dirname(require.resolve('detect-collisions'));
  const own = require('detect-collisions') as { RBush: unknown };
  for (const key of Object.keys(require.cache)) if (key.startsWith(dist + sep)) delete require.cache[key];
  const bundled = join(dist, 'external', 'rbush.js');
  const ourModule = new Module(bundled);
  ourModule.filename = bundled;
  ourModule.loaded = true;
  ourModule.exports = { __esModule: true, default: RBush };
  require.cache[bundled] = ourModule;
  const ours = require('detect-collisions') as { RBush: unknown };
  return { own, ours, ownRBush: own.RBush };
}

const { own, ours, ownRBush } = loadBoth();

function specFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory() ? specFiles(join(dir, e.name)) : e.name.endsWith('.spec.js') ? [join(dir, e.name)] : [],
    )
    .sort();
}

const passed = { own: 0, ours: 0 };
const total = { own: 0, ours: 0 };

/** Register one spec file's tests, its `require` of the library giving `library`; passes are counted in `which`. */
function runSpec(file: string, library: unknown, which: 'own' | 'ours'): void {
  const source = readFileSync(file, 'utf8');
  const specRequire = (id: string): unknown => {
    if (LIBRARY.has(id)) return library;
    if (id === 'node:test') return { describe };
    throw new Error(`${file}: unexpected require('${id}')`);
  };
  const counted =
    (register: typeof it) =>
    (name: string, fn: () => unknown): void => {
      total[which]++;
      register(name, async () => {
        await fn();
        passed[which]++;
      });
    };
  // a block of its own: the spec may declare `describe` again (circle.spec.js takes it from node:test)
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const body = new Function('require', 'describe', 'it', 'test', 'expect', 'jest', 'beforeEach', `{\n${source}\n}`);
  body(specRequire, describe, counted(it), counted(test), expect, vi, beforeEach);
}

const files = specFiles(specs);

describe('detect-collisions 9.27.6 with its own rbush', () => {
  for (const file of files) describe(file.slice(specs.length), () => runSpec(file, own, 'own'));
});

describe('detect-collisions 9.27.6 with rbush resolved to sweep-prune/rbush', () => {
  test('its System extends sweep-prune/rbush there, and the bundled rbush in the published copy', () => {
    const { System } = ours as { System: new () => object };
    expect(new System()).toBeInstanceOf(RBush);
    expect(new (own as { System: new () => object }).System()).toBeInstanceOf(ownRBush as new () => object);
    expect(new (own as { System: new () => object }).System()).not.toBeInstanceOf(RBush);
  });
  for (const file of files) describe(file.slice(specs.length), () => runSpec(file, ours, 'ours'));
});

afterAll(() => {
  console.log(
    `detect-collisions' own tests: ${passed.own} of ${total.own} pass with its own rbush, ` +
      `${passed.ours} of ${total.ours} with sweep-prune/rbush`,
  );
});
