// A static file server for the browser tests' pages (tests/package, tests/e2e): each request's path mapped to a file
// by the caller; `isolated` sends the two headers of a cross-origin-isolated page (COOP same-origin, COEP require-corp).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
};

/** Serve `fileOf(path)` for each request (`path` decoded, normalised, never above `/`); 404 when it cannot be read. */
export async function serveStatic(
  fileOf: (path: string) => string,
  isolated = false,
): Promise<{ url: string; stop: () => void }> {
  const server: Server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url!, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = fileOf(path);
    try {
      const body = readFileSync(file);
      const headers: Record<string, string> = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' };
      if (isolated) {
        headers['cross-origin-opener-policy'] = 'same-origin';
        headers['cross-origin-embedder-policy'] = 'require-corp';
      }
      res.writeHead(200, headers).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, stop: () => server.close() };
}
