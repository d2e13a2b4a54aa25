// The C library from CMake, as a C user gets it: `cmake --install` then find_package(sweep_prune) from a scratch
// project (tests/package/cmake/), and add_subdirectory() of the source tree.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const consumer = join(root, 'tests', 'package', 'cmake');
let tmp: string;

function cmake(...args: string[]): string {
  return execFileSync('cmake', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Every file under dir, as paths relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(dir, join(prefix, e.name)) : [join(prefix, e.name)],
  );
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'sweep-prune-cmake-'));
});

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('C library from CMake', () => {
  test('cmake --install, then find_package(sweep_prune 0.1) in another project builds and runs', () => {
    const build = join(tmp, 'lib');
    const prefix = join(tmp, 'prefix');
    cmake('-S', root, '-B', build, '-DCMAKE_BUILD_TYPE=Release');
    cmake('--build', build, '-j2', '--target', 'sweep_prune');
    cmake('--install', build, '--prefix', prefix);
    const installed = filesUnder(prefix);
    expect(installed).toContain(join('include', 'sweep_prune', 'sweep_prune.h'));
    expect(installed.some((f) => /^lib(64)?\/libsweep_prune\.a$/.test(f))).toBe(true);
    expect(installed.some((f) => f.endsWith('sweep_pruneConfigVersion.cmake'))).toBe(true);
    expect(installed.some((f) => /test|\.c$/.test(f))).toBe(false);

    const app = join(tmp, 'find-package');
    cmake('-S', consumer, '-B', app, `-DCMAKE_PREFIX_PATH=${prefix}`);
    cmake('--build', app);
    expect(execFileSync(join(app, 'consumer'), { encoding: 'utf8' })).toBe('ok 1 pair(s)\n');
  });

  test('add_subdirectory() builds only the library, not its tests or benchmark', () => {
    const app = join(tmp, 'add-subdirectory');
    cmake('-S', consumer, '-B', app, `-DSWEEP_PRUNE_SOURCE=${root}`);
    cmake('--build', app, '-j2');
    expect(execFileSync(join(app, 'consumer'), { encoding: 'utf8' })).toBe('ok 1 pair(s)\n');
    expect(existsSync(join(app, 'sweep_prune', 'sp_tests'))).toBe(false);
    expect(existsSync(join(app, 'sweep_prune', 'sp_bench'))).toBe(false);
  });

  test('a sanitizer build does not export sanitizer flags to users of the library', () => {
    const build = join(tmp, 'sanitize');
    cmake('-S', root, '-B', build, '-DSP_SANITIZE=ON', '-DSP_BUILD_TESTS=OFF');
    const exported = filesUnder(build).filter((f) => /CMakeFiles\/Export\/.*\.cmake$/.test(f));
    expect(exported.length).toBeGreaterThan(0);
    for (const f of exported) expect(readFileSync(join(build, f), 'utf8')).not.toMatch(/fsanitize/);
  });
});
