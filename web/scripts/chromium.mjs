// Debian's Chromium, headless, driven by playwright-core with a fresh profile, for the page scripts. The flags keep
// it off the network this machine does not have (background networking, component updates, sync).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser context with `options` (viewport, deviceScaleFactor, ...); `close()` also deletes its profile. */
export async function launchChromium(options = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
    ...options,
  });
  const close = context.close.bind(context);
  context.close = async (...args) => {
    await close(...args);
    rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
  };
  return context;
}
