// The page as a new user meets it, in Debian's Chromium under the strict Content-Security-Policy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { addressMatching, ARTIFACTS, cellCentre, openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const text = (page, id) => page.textContent(`[data-testid=${id}]`);

test('the default view is DeepSeek-V3 Fig. 5: makespan 66 and a bubble of 6 on every rank', async () => {
  const { page, problems } = await browser.page();
  assert.equal(await text(page, 'makespan'), '66');
  assert.equal(await text(page, 'bubble-fraction'), '9.09%');
  assert.equal(await text(page, 'bubble-per-rank'), '6');
  assert.equal(await text(page, 'peak-activations'), '9');
  const bubbles = await page.$$eval('[data-testid=per-rank-table] tbody tr td:nth-child(3)', (tds) => tds.map((td) => td.textContent));
  assert.deepEqual(bubbles, ['6', '6', '6', '6', '6', '6', '6', '6']);
  assert.equal(await page.inputValue('[data-testid=preset]'), 'fig5');
  await page.screenshot({ path: join(ARTIFACTS, 'page-default.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('the timeline canvas is drawn in the figure colours', async () => {
  const { page } = await browser.page();
  const counts = await page.locator('#panel-timeline canvas').evaluate((canvas) => {
    const ctx = canvas.getContext('2d');
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let coloured = 0;
    let orange = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
      if (a > 0 && !(r > 240 && g > 240 && b > 240)) coloured++;
      if (r === 0xf2 && g === 0x8e && b === 0x2b) orange++; // --pipesim-forward
    }
    return { coloured, orange, total: data.length / 4 };
  });
  assert.ok(counts.coloured > counts.total * 0.2, `only ${counts.coloured} of ${counts.total} pixels drawn`);
  assert.ok(counts.orange > 1000, 'forward cells are orange');
  await page.close();
});

test('hovering a cell shows its op, and clicking an idle gap explains the bubble', async () => {
  const { page } = await browser.page();
  const canvas = '#panel-timeline canvas';
  // Rank 0's first op is F0 of direction 0 at t = 0..1.
  const first = await cellCentre(page, canvas, { rank: 0, start: 0, end: 1 });
  await page.mouse.move(first.x, first.y);
  const tooltip = page.locator('#panel-timeline .timeline-tooltip');
  await tooltip.waitFor({ state: 'visible' });
  const tip = await tooltip.textContent();
  assert.match(tip, /Forward \(F\)/);
  assert.match(tip, /micro-batch 0/);
  assert.match(tip, /direction 0/);
  assert.match(tip, /stage 0/);
  assert.match(tip, /t = 0 → 1/);
  // Rank 1 is idle during t = 0..1 (its first forward waits for rank 0's).
  const idle = await cellCentre(page, canvas, { rank: 1, start: 0, end: 1 });
  await page.mouse.click(idle.x, idle.y);
  const explain = await page.textContent('[data-testid=explain]');
  assert.match(explain, /Rank 1 idles from t = 0 to 1/);
  assert.match(explain, /waits for F0 from rank 0, which ends at t = 1/);
  await page.close();
});

test('changing ranks and micro-batches redraws at once', async () => {
  const { page } = await browser.page();
  await page.fill('[data-testid=ranks]', '4');
  await page.fill('[data-testid=micro-batches]', '8');
  assert.equal(await text(page, 'makespan'), '26');
  assert.equal(await text(page, 'bubble-per-rank'), '2');
  await addressMatching(page, /ranks=4&micro-batches=8/);
  await page.close();
});

test('switching schedule updates every readout', async () => {
  const { page } = await browser.page();
  await page.selectOption('[data-testid=schedule]', '1f1b');
  assert.equal(await text(page, 'makespan'), '81'); // (20 + 8 - 1) x 3
  assert.equal(await text(page, 'bubble-per-rank'), '21'); // (8 - 1)(1 + 2)
  await page.selectOption('[data-testid=schedule]', 'dualpipev');
  await page.fill('[data-testid=ranks]', '4');
  await page.fill('[data-testid=micro-batches]', '10');
  assert.equal(await text(page, 'makespan'), '66');
  await page.close();
});

test('compare puts DualPipe, 1F1B and ZB-H1 on one axis with their numbers', async () => {
  // The Compare tab's code arrives when the tab is first shown: browser.page waits for it.
  const { page } = await browser.page('?view=compare');
  const rows = await page.$$eval('[data-testid=compare-table] tbody tr', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent.trim())),
  );
  assert.deepEqual(
    rows.map((r) => [r[0], r[1], r[3]]),
    [
      ['DualPipe', '66', '6'],
      ['1F1B', '81', '21'],
      ['ZB-H1', '67', '7'],
    ],
  );
  await page.check('[data-testid=compare-dualpipev]');
  // The table is drawn again after the change: wait for its fourth row, never read it right away.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=compare-table] tbody tr').length === 4);
  await addressMatching(page, /compare=1f1b,zb-h1,dualpipev/);
  await page.screenshot({ path: join(ARTIFACTS, 'page-compare.png'), fullPage: true });
  await page.close();
});

test('3 ranks for DualPipe shows why it is refused and keeps the page working', async () => {
  const { page, problems } = await browser.page();
  await page.fill('[data-testid=ranks]', '3');
  const error = await text(page, 'error');
  assert.match(error, /dualpipe needs an even number of ranks, at least 2/);
  assert.match(error, /got 3 ranks/);
  assert.equal(await page.getAttribute('[data-testid=ranks]', 'aria-invalid'), 'true');
  await page.fill('[data-testid=ranks]', '4');
  await page.fill('[data-testid=micro-batches]', '8');
  assert.equal(await page.isHidden('[data-testid=error]'), true);
  assert.equal(await text(page, 'makespan'), '26');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the state lives in the URL, and URL text is never inserted as markup', async () => {
  const shared = await browser.page('?schedule=zb-h1&ranks=4&micro-batches=8&cost=F=1,B=2,W=1&compare=1f1b');
  assert.equal(await text(shared.page, 'makespan'), '27');
  await shared.page.close();
  const evil = encodeURIComponent('<img src=x onerror="window.pwned=1">');
  const { page, problems } = await browser.page(`?schedule=${evil}`);
  assert.match(await text(page, 'error'), /unknown schedule '<img src=x onerror="window.pwned=1">'; known schedules: gpipe, 1f1b/);
  assert.equal(await page.locator('#error img').count(), 0);
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.deepEqual(problems, []);
  await page.close();
  const bold = await browser.page(`?ranks=${encodeURIComponent('<b>8</b>')}`);
  // Opened on a refused link, the page has drawn nothing yet, so it does not claim to show a last drawing.
  assert.equal(await text(bold.page, 'error'), 'Not accepted: ranks must be a whole number, got <b>8</b>');
  assert.equal(await bold.page.locator('#error b').count(), 0);
  await bold.page.close();
});

test('a phone-sized screen and the dark theme both render', async () => {
  const { page, problems } = await browser.page('', { width: 390, height: 844, colorScheme: 'dark' });
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.equal(await text(page, 'theme-toggle'), 'Light theme');
  assert.equal(await text(page, 'makespan'), '66');
  // On a phone the figure comes before the controls.
  const [stageTop, controlsTop] = await page.evaluate(() => ['.stage', '.controls'].map((s) => document.querySelector(s).getBoundingClientRect().top));
  assert.ok(stageTop < controlsTop);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page is ${overflow}px wider than the screen`);
  await page.screenshot({ path: join(ARTIFACTS, 'page-phone-dark.png'), fullPage: true });
  await page.click('[data-testid=theme-toggle]');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
  assert.equal(await text(page, 'theme-toggle'), 'Dark theme');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the page runs under the strict CSP with no violation', async () => {
  const { page, problems } = await browser.page('?view=charts');
  await page.waitForSelector('#panel-charts svg');
  await page.click('[data-testid=tab-memory]');
  await page.waitForSelector('[data-testid=parameters-table]');
  assert.deepEqual(problems, []);
  await page.close();
});
