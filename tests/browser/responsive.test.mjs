// The page stays responsive with large runs: sweeps and large runs go to the background worker (with
// progress for a sweep, stale results dropped), large timelines are drawn as aggregated pixel columns
// rather than op by op, and the offline file, which has no worker, still gets there.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ARTIFACTS, DIST, cellCentre, openBrowser } from './harness.mjs';
import { launchChromium } from './chromium.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const text = (page, id) => page.textContent(`[data-testid=${id}]`);
const idle = (page) => page.waitForSelector('#app[data-state=ready]:not([data-busy])');

/** Records every value the sweep's progress bar shows, from before the page starts. */
async function recordProgress(page) {
  await page.addInitScript(() => {
    window.progressSeen = [];
    new MutationObserver((changes) => {
      for (const c of changes)
        if (c.target.dataset?.testid === 'sweep-progress')
          window.progressSeen.push({ done: Number(c.target.dataset.done), total: Number(c.target.dataset.total), text: c.target.textContent, hidden: c.target.hidden });
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-done', 'hidden'] });
  });
}

test('the Charts sweeps run in the background worker and show their progress point by point', async () => {
  const { page, problems } = await browser.page(null);
  await recordProgress(page);
  await page.goto(`${browser.url}?view=charts&schedule=dualpipe&ranks=32&micro-batches=64&compare=1f1b,zb-h1`);
  await page.waitForSelector('#panel-charts[data-swept-in] .chart-card');
  assert.equal(await page.getAttribute('#panel-charts', 'data-swept-in'), 'worker');
  const seen = await page.evaluate(() => window.progressSeen);
  const counts = seen.filter((s) => !s.hidden).map((s) => s.done);
  const total = seen.at(-1).total;
  // 3 schedules x (128 micro-batch values + 32 rank values) + 9 schedules for the trade-off chart.
  assert.equal(total, 3 * (128 + 32) + 9);
  assert.ok(new Set(counts).size >= 10, `the bar moved in steps: ${counts.join(', ')}`);
  assert.deepEqual(counts, [...counts].sort((a, b) => a - b), 'the count only grows');
  assert.equal(Math.max(...counts), total);
  assert.match(seen.find((s) => s.done > 0 && s.done < total).text.trim(), /^Simulating: \d+ of 489 points$/);
  assert.equal(await page.isHidden('[data-testid=sweep-progress]'), true, 'the bar goes away when the charts are drawn');
  // Bubble fraction and largest rank bubble against micro-batches and ranks, the trade-off, utilisation.
  assert.equal(await page.locator('#panel-charts .chart-card').count(), 6);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a new setting stops the sweep still running: only the newest charts are drawn', async () => {
  const { page, problems } = await browser.page(null);
  await page.addInitScript(() => {
    window.chartTitles = [];
    let changed = false;
    new MutationObserver((changes) => {
      for (const c of changes) {
        for (const n of c.addedNodes) if (n.classList?.contains('chart-card')) window.chartTitles.push(n.querySelector('h4').textContent);
        // Once the first piece of the sweep is done, and so surely before the last, move to 8 ranks
        // (from the page itself: a round trip to the test would race a fast sweep).
        if (!changed && c.target.dataset?.testid === 'sweep-progress' && Number(c.target.dataset.done) > 0) {
          changed = true;
          const ranks = document.querySelector('[data-testid=ranks]');
          ranks.value = '8';
          ranks.dispatchEvent(new Event('input', { bubbles: true }));
        }
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-done'] });
  });
  await page.goto(`${browser.url}?view=charts&schedule=dualpipe&ranks=32&micro-batches=512&compare=1f1b,zb-h1`);
  await page.waitForSelector('#panel-charts[data-swept-in] .chart-card');
  assert.equal(await page.inputValue('[data-testid=ranks]'), '8');
  const titles = await page.evaluate(() => window.chartTitles);
  assert.deepEqual(titles.filter((title) => /ranks\)$/.test(title)), ['Bubble fraction vs micro-batches (8 ranks)', 'Largest rank bubble vs micro-batches (8 ranks)'], 'the charts of 32 ranks were never drawn');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a large run simulates in the worker: the page says so, keeps its drawing meanwhile and stays usable', async () => {
  const { page, problems } = await browser.page('?view=compare&schedule=dualpipe&ranks=64&micro-batches=64&compare=1f1b,zb-h1');
  // The page is ready before its first run is done: read the drawing once that run is over (on a
  // loaded machine it was not yet, and its late drawing then looked like the new run's).
  await idle(page);
  const drawnBefore = await page.locator('#panel-compare canvas').getAttribute('data-t1');
  // What the page shows while the run is under way is read at the moment it says it is busy (a
  // mutation observer, in the task that set it), not after the fill returns: on a loaded machine the
  // run had not started by then, on a fast one it could be over. One read, so a run that ends between
  // two reads cannot pass for a drawing replaced while still busy.
  await page.evaluate(() => {
    const app = document.querySelector('#app');
    window.pipesimBusySeen = new Promise((seen) => {
      const watch = new MutationObserver(() => {
        if (app.getAttribute('data-busy') !== 'true') return;
        watch.disconnect();
        seen({
          busy: app.getAttribute('data-busy'),
          note: document.querySelector('[data-testid=busy]')?.textContent ?? '',
          t1: document.querySelector('#panel-compare canvas').getAttribute('data-t1'),
        });
      });
      watch.observe(app, { attributes: true, attributeFilter: ['data-busy'] });
    });
  });
  await page.fill('[data-testid=micro-batches]', '2048'); // about 400 000 ops over three schedules
  const meanwhile = await page.evaluate(() => window.pipesimBusySeen);
  assert.equal(meanwhile.busy, 'true', 'the page says it is simulating');
  assert.match(meanwhile.note, /^Simulating about [\d,]+ ops in the background…$/);
  assert.equal(meanwhile.t1, drawnBefore, 'the last drawing stays meanwhile');
  await idle(page);
  const where = await page.evaluate(() => performance.getEntriesByName('pipesim:update').at(-1).detail.where);
  assert.equal(where, 'worker');
  assert.equal(await page.isHidden('[data-testid=busy]'), true);
  assert.notEqual(await page.locator('#panel-compare canvas').getAttribute('data-t1'), drawnBefore, 'the new run is drawn');
  assert.match(await text(page, 'makespan'), /^\d[\d,]*$/);
  assert.deepEqual(problems, []);
  await page.close();
});

/** What the page shows of its current run: the readout, and where the timeline's time axis ends. */
const shown = async (page, canvas) => ({
  makespan: await text(page, 'makespan'),
  t1: await page.locator(canvas).getAttribute('data-t1'),
  render: await page.locator(canvas).getAttribute('data-render'),
});

test('a refusal of a small run shows the engine message and its code and keeps the last drawing, greyed', async () => {
  const { page, problems } = await browser.page('?schedule=dualpipe&ranks=8&micro-batches=20');
  const canvas = '#panel-timeline canvas';
  const before = await shown(page, canvas);
  await page.fill('[data-testid=ranks]', '7');
  assert.match(await text(page, 'error'), /^Not accepted: dualpipe needs an even number of ranks, at least 2.*got 7 ranks/);
  assert.equal(await page.getAttribute('[data-testid=error]', 'data-code'), 'schedule_rule');
  assert.deepEqual(await shown(page, canvas), before);
  assert.equal(await page.locator('#panels.is-stale').count(), 1, 'the kept drawing is greyed out');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a refusal from the worker (a large run) shows in the error readout and keeps the last drawing', async () => {
  const { page, problems } = await browser.page('?schedule=dualpipe&ranks=64&micro-batches=512');
  await idle(page);
  const canvas = '#panel-timeline canvas';
  const before = await shown(page, canvas);
  assert.equal(before.render, 'aggregated');
  const updates = () => page.evaluate(() => performance.getEntriesByName('pipesim:update').length);
  const count = await updates();
  await page.fill('[data-testid=ranks]', '63');
  await page.waitForFunction((n) => performance.getEntriesByName('pipesim:update').length > n, count);
  await idle(page);
  assert.equal(await page.evaluate(() => performance.getEntriesByName('pipesim:update').at(-1).detail.where), 'worker');
  assert.match(await text(page, 'error'), /^Not accepted: dualpipe needs an even number of ranks, at least 2.*got 63 ranks/);
  assert.equal(await page.getAttribute('[data-testid=error]', 'data-code'), 'schedule_rule');
  assert.deepEqual(await shown(page, canvas), before);
  assert.equal(await page.locator('#panels.is-stale').count(), 1);
  // An accepted value again: the error goes and the new run is drawn.
  await page.fill('[data-testid=ranks]', '62');
  await page.waitForSelector('[data-testid=error]', { state: 'hidden' });
  await idle(page);
  assert.notEqual(await text(page, 'makespan'), before.makespan);
  assert.equal(await page.locator('#panels.is-stale').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a large run superseded while in the worker is never drawn', async () => {
  const expected = await browser.page('?schedule=dualpipe&ranks=64&micro-batches=1024', { ready: null });
  await idle(expected.page);
  const makespan = await text(expected.page, 'makespan');
  await expected.page.close();
  const { page, problems } = await browser.page('?schedule=dualpipe&ranks=64&micro-batches=64');
  const updates = () => page.evaluate(() => performance.getEntriesByName('pipesim:update').length);
  const before = await updates();
  await page.fill('[data-testid=micro-batches]', '4096'); // in the worker ...
  await page.fill('[data-testid=micro-batches]', '1024'); // ... and already stale
  await idle(page);
  assert.equal(await text(page, 'makespan'), makespan);
  assert.equal((await updates()) - before, 1, 'only the newest run was drawn');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a large comparison is drawn as aggregated pixel columns, in the figure colours, and zooming in brings the cells back', async () => {
  const { page, problems } = await browser.page('?view=compare&schedule=dualpipe&ranks=64&micro-batches=512&compare=1f1b,zb-h1', { ready: null });
  await idle(page);
  const canvas = '#panel-compare canvas';
  const drawn = await page.locator(canvas).evaluate((c) => ({ ...c.dataset }));
  assert.equal(drawn.render, 'aggregated');
  // About 205 000 ops, drawn with one image per rank (192) and one per schedule.
  assert.ok(Number(drawn.drawCalls) <= 3 * 65, `${drawn.drawCalls} canvas calls for the ops`);
  const colours = await page.locator(canvas).evaluate((c) => {
    const { data } = c.getContext('2d').getImageData(Number(c.dataset.px0) + 1, 0, Number(c.dataset.px1) - Number(c.dataset.px0) - 2, c.height);
    const count = { orange: 0, green: 0, blue: 0, white: 0 };
    for (let i = 0; i < data.length; i += 4) {
      const hex = ((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]).toString(16).padStart(6, '0');
      if (data[i + 3] !== 255) continue;
      if (hex === 'f28e2b') count.orange++; // --pipesim-forward
      if (hex === '4f9a45') count.green++; // --pipesim-backward
      if (hex === '4e79a7') count.blue++; // --pipesim-weight (ZB-H1's W)
      if (hex === 'ffffff') count.white++; // --pipesim-idle: the bubbles stay visible
    }
    return count;
  });
  for (const [name, n] of Object.entries(colours)) assert.ok(n > 2000, `${n} ${name} pixels`);
  await page.screenshot({ path: join(ARTIFACTS, 'compare-64x512-aggregated.png'), fullPage: true });
  // Zoomed in to a few cost units, the first schedule is drawn cell by cell again, and hovering a
  // cell names its op.
  await page.focus(canvas);
  for (let k = 0; k < 16; k++) await page.keyboard.press('+');
  await page.waitForFunction((s) => document.querySelector(s).dataset.render !== 'aggregated', canvas);
  const d = await page.locator(canvas).evaluate((c) => ({ t0: Number(c.dataset.t0), t1: Number(c.dataset.t1) }));
  // The figure is taller than the window: bring its first rows into view, as a reader would, to hover them.
  await page.locator(canvas).evaluate((c) => c.scrollIntoView({ block: 'start' }));
  const where = await cellCentre(page, canvas, { rank: 0, start: d.t0 + (d.t1 - d.t0) * 0.3, end: d.t0 + (d.t1 - d.t0) * 0.3, groupOffset: 24 });
  await page.mouse.move(where.x, where.y);
  const tooltip = page.locator('#panel-compare .timeline-tooltip');
  await tooltip.waitFor({ state: 'visible' });
  assert.match(await tooltip.textContent(), /rank 0 · t = /);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a small run is still drawn cell by cell', async () => {
  const { page } = await browser.page();
  assert.equal(await page.getAttribute('#panel-timeline canvas', 'data-render'), 'cells');
  await page.close();
});

test('a large run in a <pipesim-timeline> element is simulated off the page and drawn aggregated', async () => {
  const { page, problems } = await browser.page('examples/element.html', { ready: null });
  await page.locator('#fig5 [data-testid=makespan]').waitFor();
  await page.evaluate(() => {
    const element = document.querySelector('#fig5');
    element.setAttribute('ranks', '64');
    element.setAttribute('micro-batches', '2048');
  });
  await page.waitForFunction(() => document.querySelector('#fig5').shadowRoot.querySelector('canvas')?.dataset.render === 'aggregated');
  assert.notEqual(await page.locator('#fig5 [data-testid=makespan]').textContent(), '66');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the offline file, which cannot start a worker, runs the sweeps on the page with their progress', async () => {
  const chromium = await launchChromium();
  const page = await chromium.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await recordProgress(page);
  await page.goto(`${pathToFileURL(join(DIST, 'pipesim-offline.html')).href}?view=charts&ranks=8&micro-batches=20`);
  await page.waitForSelector('#panel-charts[data-swept-in] .chart-card');
  assert.equal(await page.getAttribute('#panel-charts', 'data-swept-in'), 'main-thread');
  const counts = await page.evaluate(() => window.progressSeen.filter((s) => !s.hidden).map((s) => s.done));
  assert.ok(new Set(counts).size >= 5, `progress shown in steps: ${counts.join(', ')}`);
  assert.deepEqual(problems, []);
  await chromium.close();
});
