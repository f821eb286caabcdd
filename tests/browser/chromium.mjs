// Debian's Chromium driven by playwright-core (no browser download): one launcher for all browser tests.
import { chromium } from 'playwright-core';

/**
 * Debian's headless shell of Chromium (package chromium-headless-shell): the same Blink, V8 and Skia
 * as the browser, without the browser's window, profile and UI layers, which headless pages never use.
 * It is what Playwright itself runs headless pages in. Measured on the 2-core machine: a new context
 * with the page loaded takes 0.46 CPU seconds instead of 1.37 with /usr/bin/chromium, and the whole
 * Chromium suite 373 CPU seconds instead of 753 (190 s instead of 380 s of wall time), with the same
 * results. PIPESIM_CHROMIUM=/usr/bin/chromium runs the suite in the full browser.
 */
export const CHROMIUM = process.env.PIPESIM_CHROMIUM ?? '/usr/bin/chromium-headless-shell';

/**
 * How long any wait may last before a test fails: a guard against a hang, not a measure of speed.
 * Tests wait for conditions (a selector, a state, an event), never for durations, so this bound only
 * has to be far above what the slowest wait takes on a loaded 2-core machine.
 */
export const HANG_GUARD_MS = 300_000;

/** The flags this sandbox needs (root, closed network); each launch gets a fresh profile. */
export const LAUNCH_OPTIONS = {
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
};

/**
 * Where a Chromium shared by every test file listens (scripts/test-browser.mjs starts it): a file then
 * connects to it instead of starting its own, which saves a browser start per file. A file run alone
 * starts its own.
 */
export const SHARED_CHROMIUM = 'PIPESIM_CHROMIUM_ENDPOINT';

/**
 * A headless Chromium with the flags this sandbox needs (root, closed network), or a connection to
 * the shared one.
 * Every page opens in a context of its own: its own storage, cookies and cache, so that a test sees
 * only what it set up, whichever tests ran before it or run beside it.
 */
export async function launchChromium() {
  const endpoint = process.env[SHARED_CHROMIUM];
  // Connected: close() below disconnects and closes this file's contexts, the shared browser stays.
  const browser = endpoint ? await chromium.connect(endpoint) : await chromium.launch(LAUNCH_OPTIONS);
  // Present a Browser-like object: newPage(options) opens a page with its own viewport, scheme and,
  // for the touch tests, a touch screen.
  return {
    async newPage({ viewport = { width: 1400, height: 900 }, colorScheme = 'light', hasTouch = false } = {}) {
      const context = await browser.newContext({ viewport, colorScheme, hasTouch, acceptDownloads: true });
      context.setDefaultTimeout(HANG_GUARD_MS);
      const page = await context.newPage();
      page.once('close', () => context.close().catch(() => {}));
      return page;
    },
    async close() {
      await browser.close();
    },
  };
}
