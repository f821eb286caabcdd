// Charts with exact numbers: hover shows a point's exact value, the largest rank bubble is plotted in
// time units against micro-batches and ranks (DualPipe's line is flat), and every chart has its data
// as a table under it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const ready = (page) => page.waitForSelector('#panel-charts[data-swept-in] [data-testid=chart-absolute]');

/** The rows of the data table under the `n`th card: [x, value per series...]. */
const tableOf = (page, card) =>
  card.locator('.chart-data tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));

test('the largest rank bubble against micro-batches: DualPipe flat at (PP/2-1)(F&B+B-3W) = 6, 1F1B at (p-1)(F+B) = 21', async () => {
  const { page, problems } = await browser.page('?view=charts&schedule=dualpipe&ranks=8&micro-batches=20&compare=1f1b');
  await ready(page);
  const card = page.locator('[data-testid=chart-absolute]').first();
  assert.equal(await card.locator('h4').textContent(), 'Largest rank bubble vs micro-batches (8 ranks)');
  const rows = await tableOf(page, card);
  const header = await card.locator('.chart-data thead th').allTextContents();
  assert.deepEqual(header, ['micro-batches', 'DualPipe', '1F1B']);
  for (const [m, dualpipe, onefoneb] of rows) {
    const accepted = Number(m) >= 16 && Number(m) % 2 === 0;
    assert.equal(dualpipe, accepted ? '6' : '–', `DualPipe at ${m}`);
    assert.equal(onefoneb, '21', `1F1B at ${m}`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('hovering a point shows its exact value, to two decimals of a percent', async () => {
  const { page, problems } = await browser.page('?view=charts&schedule=dualpipe&ranks=8&micro-batches=20&compare=1f1b');
  await ready(page);
  const point = page.locator('#panel-charts .chart-card').first().locator('circle[data-value*="micro-batches 20 "]').first();
  // The mouse reaches only what the window shows: bring the point into view first.
  await point.scrollIntoViewIfNeeded();
  const box = await point.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  assert.equal(await page.locator('#panel-charts .chart-card').first().locator('[data-testid=chart-hover]').textContent(), 'DualPipe: micro-batches 20 → 9.09%');
  assert.deepEqual(problems, []);
  await page.close();
});

test('every chart has its numbers as a table', async () => {
  const { page, problems } = await browser.page('?view=charts');
  await ready(page);
  const cards = page.locator('#panel-charts .chart-card');
  const withTables = await cards.evaluateAll((cs) => cs.filter((c) => c.querySelector('.chart-data table')).length);
  // All but the trade-off scatter, whose points are listed in its own labels.
  assert.equal(withTables, (await cards.count()) - 1);
  assert.deepEqual(problems, []);
  await page.close();
});
