// Debian's Chromium driven by playwright-core (no browser download): one launcher for all browser tests.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = process.env.PIPESIM_CHROMIUM ?? '/usr/bin/chromium';

/** A headless Chromium with the flags this sandbox needs (root, closed network) and a fresh profile. */
export async function launchChromium() {
  const profile = mkdtempSync(join(tmpdir(), 'pipesim-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  // Present a Browser-like object: newPage(options) opens a page with its own viewport and scheme.
  return {
    async newPage({ viewport = { width: 1400, height: 900 }, colorScheme = 'light' } = {}) {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme });
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
