// Embedding: the custom element, the course widget, the iframe mode and the offline single file,
// each under the strict Content-Security-Policy (violations are page errors in the harness).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ARTIFACTS, DIST, openBrowser } from './harness.mjs';
import { launchChromium } from './chromium.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

/** Text of a data-testid inside an element's shadow root (Playwright pierces open shadow roots). */
const inside = (page, host, testid) => page.locator(`${host} [data-testid=${testid}]`).first().textContent();

test('two <pipesim-timeline> elements with different schedules both render, and redraw on attribute changes', async () => {
  const { page, problems } = await browser.page('examples/element.html', { ready: null });
  await page.locator('#fig5 [data-testid=makespan]').waitFor();
  await page.locator('#zb [data-testid=makespan]').waitFor();
  assert.equal(await inside(page, '#fig5', 'makespan'), '66');
  assert.equal(await inside(page, '#zb', 'makespan'), '27');
  assert.equal(await page.locator('#zb canvas').count(), 1);
  // Both draw on their canvas.
  for (const id of ['#fig5', '#zb']) {
    const drawn = await page.locator(`${id} canvas`).evaluate((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && !(d[i] > 240 && d[i + 1] > 240 && d[i + 2] > 240)) n++;
      return n;
    });
    assert.ok(drawn > 5000, `${id} canvas drawn`);
  }
  await page.click('#more-ranks');
  await page.waitForFunction(() => document.querySelector('#fig5').shadowRoot.querySelector('[data-testid=makespan]').textContent === '26');
  await page.click('#toggle-theme');
  assert.equal(await page.getAttribute('#fig5', 'theme'), 'dark');
  await page.locator('#chunk [data-testid=hidden-fraction]').waitFor();
  await page.screenshot({ path: join(ARTIFACTS, 'embed-element.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('an element given a configuration the engine refuses shows the reason inside itself', async () => {
  const { page, problems } = await browser.page('examples/element.html', { ready: null });
  await page.locator('#fig5 [data-testid=makespan]').waitFor();
  await page.evaluate(() => document.querySelector('#fig5').setAttribute('ranks', '3'));
  await page.waitForFunction(() => document.querySelector('#fig5').shadowRoot.querySelector('[data-testid=error]'));
  assert.match(await inside(page, '#fig5', 'error'), /even number of ranks/);
  assert.deepEqual(problems, []);
  await page.close();
});

// The course widget on the course site's own path: tests/browser/course.test.mjs.

test('?embed=1 drops the chrome and the iframe grows to its content', async () => {
  const { page: p, problems } = await browser.page('examples/iframe.html', { ready: null });
  const frame = p.frameLocator('#frame');
  await frame.locator('[data-testid=makespan]').waitFor();
  assert.equal(await frame.locator('[data-testid=makespan]').textContent(), '66');
  assert.equal(await frame.locator('.controls').isHidden(), true);
  await p.waitForFunction(() => parseInt(getComputedStyle(document.getElementById('frame')).height, 10) > 400);
  assert.deepEqual(problems, []);
  await p.close();
});

test('the offline single file works from a file:// URL', async () => {
  const chromium = await launchChromium();
  const page = await chromium.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(pathToFileURL(join(DIST, 'pipesim-offline.html')).href);
  await page.waitForSelector('#app[data-state=ready]');
  assert.equal(await page.textContent('[data-testid=makespan]'), '66');
  await page.fill('[data-testid=ranks]', '4');
  await page.fill('[data-testid=micro-batches]', '8');
  assert.equal(await page.textContent('[data-testid=makespan]'), '26');
  // The course data the engine gets on first need is inside the file too: the planner, the exercises.
  await page.goto(pathToFileURL(join(DIST, 'pipesim-offline.html')).href + '?view=planner');
  await page.waitForSelector('[data-testid=planner-recommendation]');
  await page.click('[data-testid=tab-exercises]');
  await page.waitForSelector('#panel-exercises [data-testid=exercise-1-answer]', { state: 'attached' }); // its solution opens after an answer
  assert.deepEqual(problems, []);
  await chromium.close();
});
