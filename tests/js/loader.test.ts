// init() failures say what failed: a file not found, an HTTP status, a page in place of the module, a damaged file;
// never "SIMD support" unless the platform really lacks it (tests/package runs Node with no WebAssembly for that).
// Nothing in this file initialises the engine before the last test: a failed init() can be retried.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { init, isInitialized, SweepPruneError } from '../../web/src/index.js';

const wasm = readFileSync(new URL('../../web/src/generated/sweep_prune.wasm', import.meta.url));
const damaged = wasm.subarray(0, wasm.length >> 1);

let server: Server;
let base: string;
beforeAll(async () => {
  const pages: Record<string, [number, string, Uint8Array | string]> = {
    '/page.wasm': [200, 'text/html', '<!doctype html><html><body>Not here</body></html>'],
    '/damaged.wasm': [200, 'application/wasm', damaged], // compiled while it streams
    '/damaged.bin': [200, 'application/octet-stream', damaged],
  };
  server = createServer((req, res) => {
    const [status, type, body] = pages[req.url!] ?? [404, 'text/plain', 'not found'];
    res.writeHead(status, { 'content-type': type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

async function failure(source: Parameters<typeof init>[0]): Promise<SweepPruneError> {
  const error = await init(source).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SweepPruneError);
  expect((error as SweepPruneError).code).toBe('WasmLoadFailed');
  expect((error as SweepPruneError).message).not.toMatch(/SIMD|Node 16/); // this platform has both
  return error as SweepPruneError;
}

describe('init() failures name what failed', () => {
  test('a file that is not there: "file not found", the ENOENT error as cause', async () => {
    const error = await failure('/no/such/dir/sweep_prune.wasm');
    expect(error.message).toBe(
      'init: the sweep-prune wasm module failed to load: /no/such/dir/sweep_prune.wasm: file not found',
    );
    expect((error.cause as { code?: string }).code).toBe('ENOENT');
  });

  test('an HTTP error: the status', async () => {
    const error = await failure(`${base}/missing.wasm`);
    expect(error.message).toMatch(/: fetching http:\/\/127\.0\.0\.1:\d+\/missing\.wasm failed: HTTP 404$/);
  });

  test('a page served in place of the module: not a WebAssembly module, and what it starts with', async () => {
    const error = await failure(`${base}/page.wasm`);
    expect(error.message).toMatch(
      /page\.wasm is not a WebAssembly module \(49 bytes, starting "<!doctype html><"; a web page/,
    );
  });

  test.each(['/damaged.wasm', '/damaged.bin'])(
    'a damaged module (%s): did not compile, the file is damaged; the CompileError as cause',
    async (path) => {
      const error = await failure(`${base}${path}`);
      expect(error.message).toMatch(/did not compile \(.+\): the file is damaged, or not this version's module$/);
      expect(error.cause).toBeInstanceOf(WebAssembly.CompileError);
    },
  );

  test('damaged bytes given to init()', async () => {
    const error = await failure(damaged);
    expect(error.message).toMatch(/: the wasm bytes did not compile \(.+\): the file is damaged/);
  });

  test('a failed load can be retried: init() with the embedded module then works', async () => {
    expect(isInitialized()).toBe(false);
    await init();
    expect(isInitialized()).toBe(true);
  });
});
