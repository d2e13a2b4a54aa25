// The checks a contributor relies on see what they claim: oxlint's import/no-cycle counts type-only imports (a
// cycle made of them, written here on purpose, fails the lint); every rule the oxlint config turns off says why on
// the line above, as c/.clang-tidy does for its exclusions; docs/development.md names every command of package.json
// and the map check.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const config = join(root, '.oxlintrc.json');

/** oxlint with the project's config over `dir`: its exit status and output. */
function lint(dir: string): { status: number; output: string } {
  try {
    const output = execFileSync(join(root, 'node_modules', '.bin', 'oxlint'), ['-c', config, '--deny-warnings', dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { status: 0, output };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { status: e.status, output: e.stdout + e.stderr };
  }
}

test('import/no-cycle fails a cycle made of type-only imports, and passes the same files without it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sweep-prune-cycle-'));
  try {
    writeFileSync(join(dir, 'a.ts'), "import type { B } from './b.js';\nexport interface A {\n  b?: B;\n}\n");
    writeFileSync(join(dir, 'b.ts'), "import type { A } from './a.js';\nexport interface B {\n  a?: A;\n}\n");
    const cycle = lint(dir);
    expect(cycle.status).not.toBe(0);
    expect(cycle.output).toMatch(/import\(no-cycle\): Dependency cycle detected/);
    writeFileSync(join(dir, 'b.ts'), 'export interface B {\n  a?: number;\n}\n');
    expect(lint(dir)).toMatchObject({ status: 0 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every rule the oxlint config turns off has its reason in a comment on the line above', () => {
  const lines = readFileSync(config, 'utf8').split('\n');
  const off = lines.flatMap((line, i) => (/^\s*"[\w/-]+":\s*"off"/.test(line) ? [i] : []));
  expect(off.length).toBeGreaterThan(0);
  const unexplained = off.filter((i) => !/^\s*\/\/ \S.{10,}/.test(lines[i - 1] ?? '')).map((i) => lines[i]!.trim());
  expect(unexplained).toEqual([]);
});

test('docs/development.md names every npm script and the map check', () => {
  const doc = readFileSync(join(root, 'docs', 'development.md'), 'utf8');
  const scripts = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts as object);
  // npm's own names for start and test; prepack is run by npm pack, never by hand
  const command = (s: string): string => (s === 'start' || s === 'test' ? `npm ${s}` : `npm run ${s}`);
  const missing = scripts.filter((s) => s !== 'prepack' && !new RegExp(`${command(s)}(?![\\w:-])`).test(doc));
  expect(missing).toEqual([]);
  expect(doc).toContain('node tests/c/check-map.mjs');
  expect(doc).toContain('npx vitest run --config web/vitest.config.ts');
});
