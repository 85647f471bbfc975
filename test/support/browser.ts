/**
 * Debian's Chromium driven by playwright-core. Test tools cannot download
 * browsers here, so the binary is the system one; the flags keep it off the
 * network (local-stack.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless and quiet: no sandbox (containers), no GPU, nothing fetched from the network. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(viewport = { width: 1280, height: 900 }) {
  const userDataDir = mkdtempSync(join(tmpdir(), 'lb-chromium-'));
  const context: BrowserContext = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    viewport,
    args: CHROMIUM_FLAGS,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
