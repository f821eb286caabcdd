// Shared set-up for browser tests: the built page served with the strict CSP, one Chromium,
// and a page that records console errors, page errors and CSP violations.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../scripts/serve.mjs';
import { launchChromium } from './chromium.mjs';

export const DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));
export const ARTIFACTS = fileURLToPath(new URL('../../artifacts', import.meta.url));
mkdirSync(ARTIFACTS, { recursive: true });

/** Where a server of web/dist shared by every file listens (scripts/test-browser.mjs starts it). */
export const SHARED_PAGE = 'PIPESIM_PAGE_URL';

export async function openBrowser(root = DIST) {
  const shared = root === DIST ? process.env[SHARED_PAGE] : undefined;
  const { server, url } = shared ? { server: null, url: shared } : await startServer({ root });
  const browser = await launchChromium();
  return {
    url,
    /** Opens `path`; `ready` is the selector that says the page has started (null: do not wait). A
     *  `path` of null visits nothing, for a test that sets the page up before its first visit. */
    async page(path = '', { width = 1400, height = 900, colorScheme = 'light', ready = '#app[data-state=ready]', hasTouch = false } = {}) {
      const page = await browser.newPage({ viewport: { width, height }, colorScheme, hasTouch });
      const problems = [];
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
        });
      });
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      if (path === null) return { page, problems };
      await page.goto(url + path);
      if (ready) {
        await page.waitForSelector(ready);
        await lazyTabArrived(page, new URLSearchParams(path.split('?')[1]?.split('#')[0] ?? '').get('view'));
      }
      return { page, problems };
    },
    async close() {
      await browser.close();
      server?.close();
    },
  };
}

/**
 * Waits until the section of tab `view` is the tab's own, not the placeholder that holds its place
 * while its code downloads (web/src/app/lazy_view.ts: data-testid="loading-<view>", data-state
 * "loading"), or until that placeholder says the download failed. A page opened on a tab (`?view=X`)
 * is thus drawn when `browser.page` returns, and no test adds a wait of its own for it. The timeline's
 * section, always there, passes at once; so does an unknown view, which the page refuses.
 */
export async function lazyTabArrived(page, view) {
  if (!view) return;
  await page.waitForFunction((name) => {
    const section = document.getElementById(`panel-${name}`);
    return !section || section.dataset.testid !== `loading-${name}` || section.dataset.state === 'failed';
  }, view);
}

/**
 * The page's address once it matches `pattern`. The page rewrites its address at once after a quiet
 * spell, but at most every 250 ms while settings keep changing (web/src/app/url_writer.ts).
 */
export async function addressMatching(page, pattern) {
  await page.waitForFunction((source) => new RegExp(source).test(location.href), pattern.source);
  return new URL(page.url());
}

/** Centre of op `opIndex`'s cell on rank `rank`, from the canvas's data-* layout hooks. */
export async function cellCentre(page, canvasSelector, { rank, start, end, groupOffset = 0 }) {
  const box = await page.locator(canvasSelector).boundingBox();
  const d = await page.locator(canvasSelector).evaluate((c) => ({ ...c.dataset }));
  const t0 = Number(d.t0), t1 = Number(d.t1), px0 = Number(d.px0), px1 = Number(d.px1);
  const x = px0 + (((start + end) / 2 - t0) / (t1 - t0)) * (px1 - px0);
  const y = Number(d.axis) + groupOffset + (rank + 0.5) * Number(d.rowHeight);
  return { x: box.x + x, y: box.y + y };
}

/** The bytes of a download, read as a stream: this works with a Chromium of the file's own and with the
 *  shared one alike (a download's path() does not exist for a browser connected to remotely). */
export async function downloaded(download) {
  const chunks = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** What says each tab has finished drawing what it draws last (its table, chart or question; charts wait
 *  for a coalescing timer), for the tests that walk every tab. */
export const VIEW_READY = {
  learn: '[data-testid=learn-title]',
  timeline: '[data-testid=per-rank-table]',
  compare: '[data-testid=compare-table]',
  charts: '#panel-charts .chart-card',
  memory: '[data-testid=parameters-table]',
  chunk: '[data-testid=hidden-fraction]',
  exercises: '[data-testid=exercise-4]',
  quiz: '[data-testid=quiz-question]',
  planner: '[data-testid=planner-table]',
};

/** Whether the screenshots that are for a person to look at (no check reads them) are taken:
 *  PIPESIM_SCREENSHOTS=1. A plain run skips them, which saves the suite their CPU. */
export const SCREENSHOTS = process.env.PIPESIM_SCREENSHOTS === '1';

/** `page.screenshot(options)` when SCREENSHOTS is on; nothing otherwise. */
export async function screenshotForPeople(page, options) {
  if (SCREENSHOTS) await page.screenshot(options);
}
