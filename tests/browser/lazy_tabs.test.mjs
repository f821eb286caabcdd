// The page's first load is the timeline's: every other tab's code (and the tools module the Chunk tab
// needs) is downloaded when the tab is first opened, once. Until it arrives the tab's place is held by
// an empty section of the same id and labels, marked data-state="loading"; a chunk that fails to
// download says so there and is asked for again on the next visit.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { lazyTabArrived, openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const LAZY = ['learn', 'compare', 'charts', 'memory', 'chunk', 'exercises', 'quiz', 'planner'];
const file = (url) => new URL(url).pathname.split('/').pop();

/** The page on the timeline with the list of files it has fetched so far. */
async function openTimeline() {
  const { page, problems } = await browser.page('?view=timeline');
  const fetched = [];
  page.on('request', (r) => fetched.push(file(r.url())));
  await page.reload();
  await page.waitForSelector('[data-state=ready]');
  await page.waitForSelector('#panel-timeline canvas');
  return { page, problems, fetched };
}

/** Opens `view`'s tab and waits for its own section (no longer the placeholder). */
async function open(page, view) {
  await page.click(`[data-testid=tab-${view}]`);
  await page.waitForSelector(`#panel-${view}:not([data-testid=loading-${view}]):not([hidden])`);
}

test('the first load fetches no other tab\'s code nor the course module; each tab\'s code comes once, when opened', async () => {
  const { page, problems, fetched } = await openTimeline();
  for (const view of LAZY) assert.equal(fetched.some((f) => f.startsWith(`${view}_panel-`)), false, `${view}_panel is not fetched at first load`);
  assert.equal(fetched.some((f) => /^pipesim_course.*\.wasm$/.test(f)), false, 'the course module is not fetched at first load');
  assert.equal(fetched.some((f) => /^pipesim_tools.*\.wasm$/.test(f)), false, 'nor the tools module');
  for (const view of LAZY) assert.equal(await page.getAttribute(`#panel-${view}`, 'aria-labelledby'), `tab-${view}`);

  await open(page, 'quiz');
  assert.equal(fetched.filter((f) => f.startsWith('quiz_panel-')).length, 1, 'the quiz tab\'s chunk is fetched when opened');
  assert.equal(await page.locator('#panel-quiz').count(), 1, 'its section replaced the placeholder');
  assert.equal(await page.getAttribute('#panel-quiz', 'aria-labelledby'), 'tab-quiz');
  assert.equal(await page.locator('[data-testid=loading-quiz]').count(), 0);

  // The Chunk tab needs the chunk model, in the tools module: fetched with it.
  assert.equal(fetched.some((f) => /^pipesim_tools.*\.wasm$/.test(f)), false, 'the quiz does not fetch the tools module');
  await open(page, 'chunk');
  await page.waitForSelector('#panel-chunk [data-testid=hidden-fraction]');
  assert.equal(fetched.some((f) => /^pipesim_tools.*\.wasm$/.test(f)), true, 'the tools module comes with the Chunk tab');

  // Back and forth: nothing is fetched again.
  await page.click('[data-testid=tab-timeline]');
  await open(page, 'quiz');
  assert.equal(fetched.filter((f) => f.startsWith('quiz_panel-')).length, 1, 'fetched once');
  assert.deepEqual(problems, []);
});

test('a tab whose code fails to download says so in its place, and loads on the next visit', async () => {
  const { page, fetched } = await openTimeline();
  await page.route(/exercises_panel-[^/]*\.js$/, (route) => route.abort());
  await page.click('[data-testid=tab-exercises]');
  await page.waitForSelector('[data-testid=loading-exercises][data-state=failed]');
  assert.match(await page.textContent('[data-testid=loading-exercises]'), /^This tab could not be loaded: /);
  await page.unroute(/exercises_panel-[^/]*\.js$/);
  await page.click('[data-testid=tab-timeline]');
  // A failed dynamic import is not retried by the browser under the same URL in every engine; the
  // placeholder asks again, and a later visit draws the tab if the download then succeeds.
  await page.click('[data-testid=tab-exercises]');
  await lazyTabArrived(page, 'exercises');
  assert.ok(fetched.filter((f) => f.startsWith('exercises_panel-')).length >= 1);
});
