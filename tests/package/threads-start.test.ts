// sweep-prune/threads from the built package, in every way Node runs a program: a file, -e, -p, --input-type from
// -e and from stdin, the REPL, and a loader preloaded with --import. Each runs app/threads-start.mjs in a child
// process. Its worker must really run (world.threads reads the pool's count of workers inside spPool_Work, from
// shared memory), without the program yielding to the event loop, and the updates made before it ran are counted.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
let app: string;

beforeAll(() => {
  // the package as installed: node_modules/sweep-prune/{package.json,dist}, beside the scripts
  app = mkdtempSync(join(tmpdir(), 'sweep-prune-threads-start-'));
  const pkg = join(app, 'node_modules', 'sweep-prune');
  mkdirSync(pkg, { recursive: true });
  copyFileSync(join(root, 'package.json'), join(pkg, 'package.json'));
  execFileSync(process.execPath, [join(root, 'web', 'scripts', 'build.mjs'), '--out', join(pkg, 'dist')], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const file of ['threads-start.mjs', 'twin-worlds.mjs', 'register-hooks.mjs', 'hooks.mjs']) {
    cpSync(join(root, 'tests', 'package', 'app', file), join(app, file));
  }
}, 60_000);

afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true });
});

interface Result {
  threaded: boolean;
  reason: string | null;
  started: number;
  beforeStart: number;
  fewer: number;
  fewerAfter: number;
  threads: number;
  error: string | null;
  same: boolean;
  pairs: number;
}

/** Runs node with `args` (and `input` on stdin) in the app and returns the script's RESULT line. */
function runNode(args: string[], input?: string): Result {
  const out = execFileSync(process.execPath, args, {
    cwd: app,
    encoding: 'utf8',
    input: input ?? '',
    timeout: 30_000,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const line = /RESULT (\{.*\})/.exec(out);
  if (line === null) expect.fail(`no RESULT line in the output of node ${args.join(' ')}:\n${out}`);
  return JSON.parse(line[1]!) as Result;
}

const WAYS: [string, string[], string?][] = [
  ['a file', ['threads-start.mjs']],
  ['--input-type=module -e', ['--input-type=module', '-e', "import './threads-start.mjs';"]],
  ['-e (CommonJS, dynamic import)', ['-e', "import('./threads-start.mjs');"]],
  ['-p', ['-p', "import('./threads-start.mjs')"]],
  ['--input-type=module from stdin', ['--input-type=module'], "import './threads-start.mjs';\n"],
  ['the REPL (-i)', ['-i'], "await import('./threads-start.mjs');\n"],
  ['--import of a loader that registers module hooks', ['--import', './register-hooks.mjs', 'threads-start.mjs']],
];

describe('the workers start however Node runs the program', () => {
  for (const [way, args, input] of WAYS) {
    test(`${way}: the worker runs before the program yields, and the updates before it are counted`, () => {
      const r = runNode(args, input);
      // the worker was ready when init() resolved: it ran from the first update, and stayed in spPool_Work
      expect(r.started).toBe(2);
      expect(r.beforeStart).toBe(0);
      expect(r.threads).toBe(2);
      expect(r.error).toBeNull();
      expect(r).toMatchObject({ threaded: true, reason: null, same: true });
      expect(r.pairs).toBeGreaterThan(1000);
      // every update made while world.threads was 1 is counted (the last one may have found the worker in), and
      // none after
      expect(r.fewer).toBeLessThanOrEqual(r.beforeStart);
      expect(r.fewer).toBeGreaterThanOrEqual(r.beforeStart - 1);
      expect(r.fewerAfter).toBe(r.fewer);
    });
  }
});
