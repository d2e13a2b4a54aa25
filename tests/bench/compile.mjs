// The TypeScript wrapper compiled as it is, for the benchmarks (the wasm is embedded by web/scripts/setup.sh), into
// one folder: every benchmark of a process imports the same modules, so they share one engine.
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = `${root}build/bench/js`;
const compiled = new Set();

/**
 * Compile the entries (paths under web/src) as one program, those not compiled yet in this process. Programs are
 * separate where types clash (p2-es and cannon-es declare the same global module names); the emitted JS is the same.
 */
export function compileWrapper(entries) {
  const fresh = entries.filter((e) => !compiled.has(e));
  if (fresh.length === 0) return;
  execFileSync(
    `${root}node_modules/.bin/tsc`,
    [
      ...fresh.map((e) => `${root}web/src/${e}`),
      ...['--outDir', out, '--rootDir', `${root}web/src`, '--target', 'es2022', '--module', 'esnext'],
      ...[
        '--moduleResolution',
        'bundler',
        '--skipLibCheck',
        '--lib',
        'es2022,dom,esnext.disposable',
        '--types',
        'node',
      ],
    ],
    { stdio: 'inherit' },
  );
  for (const e of fresh) compiled.add(e);
}

/** Import a compiled module by its path under web/src, with .js for .ts. */
export function importWrapper(file) {
  return import(pathToFileURL(`${out}/${file}`).href);
}
