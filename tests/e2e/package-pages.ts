// Pages that load the built package (dist/, as npm ships it) in real Chromium, for the e2e tests: the package is
// served twice, under /a/ and /b/, so that a page can load two entries each with its own engine. A page sets
// `window.result`; `run` returns it, with the number of workers the page started, and fails on any page error.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { launchChromium } from '../../web/scripts/chromium.mjs';
import { serveStatic } from '../package/static-server';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface PackagePages {
  /** Open `html` (a module script setting `window.result`), served with COOP/COEP when `isolated`. */
  run(html: string, isolated: boolean): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Builds the package into a temporary directory and launches Chromium (call from beforeAll). */
export async function packagePages(): Promise<PackagePages> {
  const tmp = mkdtempSync(join(tmpdir(), 'sweep-prune-e2e-'));
  const stops: (() => void)[] = [];
  execFileSync(process.execPath, [join(root, 'web/scripts/build.mjs'), '--out', join(tmp, 'dist')], { stdio: 'pipe' });
  const context = (await launchChromium()) as BrowserContext;
  let pages = 0;
  return {
    async run(html, isolated) {
      const name = `page-${pages++}.html`;
      writeFileSync(join(tmp, name), html);
      const server = await serveStatic((path) => join(tmp, path).replace(/\/(a|b)\//, '/dist/'), isolated);
      stops.push(server.stop);
      const page = await context.newPage();
      const errors: string[] = [];
      let workers = 0;
      page.on('worker', () => workers++);
      let failed: (() => void) | undefined;
      const failure = new Promise<void>((resolve) => (failed = resolve));
      page.on('pageerror', (e) => {
        errors.push(e.message);
        failed!(); // an uncaught error ends the page's script: no result will come
      });
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(server.url + name);
      await Promise.race([
        page.waitForFunction(() => 'result' in window || false, undefined, { timeout: 60_000 }),
        failure,
      ]);
      expect(errors).toEqual([]);
      const result = await page.evaluate(() => (window as unknown as { result: Record<string, unknown> }).result);
      await page.close();
      expect(errors).toEqual([]);
      return { ...result, workers };
    },
    async close() {
      await context.close();
      for (const stop of stops) stop();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** The pages of one test file: the package built and Chromium launched before its tests, closed after them. */
export function usePackagePages(): Pick<PackagePages, 'run'> {
  let pages: PackagePages | undefined;
  beforeAll(async () => {
    pages = await packagePages();
  }, 120_000);
  afterAll(() => pages?.close());
  return { run: (html, isolated) => pages!.run(html, isolated) };
}
