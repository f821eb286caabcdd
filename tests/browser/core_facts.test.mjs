// The page presents what the engine decides (issue 20): the formula verdict, each rank's peak and the
// stages it holds, the field a refusal is about, the cost bounds, and one download button per export
// format of the engine's table.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { addressMatching, openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const text = (page, id) => page.textContent(`[data-testid=${id}]`);

test('the memory view shows each rank\'s peak, when it is reached, and the stages it holds, from the summary', async () => {
  const { page, problems } = await browser.page('?schedule=dualpipe&ranks=4&micro-batches=8&cost=F=1,B=2,W=1,FB=3&view=memory');
  await page.waitForSelector('[data-testid=parameters-table]');
  const rows = await page.locator('[data-testid=parameters-table] tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
  );
  assert.deepEqual(rows[0].slice(0, 2), ['rank 0', 'stage 0 (direction 0 (enters at rank 0)), stage 3 (direction 1 (enters at the last rank))']);
  assert.equal(rows.length, 4);
  const titles = await page.locator('#panel-memory circle title').allTextContents();
  // DualPipe on 4 ranks holds PP + 1 = 5 chunks at its peak: the end ranks reach it at t = 7, the middle ones at 5.
  assert.deepEqual(titles, ['peak 5 at t = 7', 'peak 5 at t = 5', 'peak 5 at t = 5', 'peak 5 at t = 7']);
  // Axes and units: time from 0 to the makespan (26) in steps of 5, and the rows' one height scale.
  assert.deepEqual(await page.locator('#panel-memory .memory-x-tick').allTextContents(), ['0', '5', '10', '15', '20', '25']);
  assert.equal(await text(page, 'memory-time-axis'), 'time (time units)');
  assert.equal(await text(page, 'memory-row-scale'), 'Each row: live stage-activations, from 0 to 5, on one scale for every rank.');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the formula readout says what the engine decided: it holds for DualPipe at unit costs', async () => {
  const { page, problems } = await browser.page('?schedule=dualpipe&ranks=8&micro-batches=20&cost=F=1,B=2,W=1,FB=3');
  assert.equal(await text(page, 'bubble-per-rank'), '6');
  const verdict = page.locator('.readout:has([data-testid=bubble-per-rank]) .meta span');
  assert.equal(await verdict.getAttribute('class'), 'ok');
  assert.equal(await verdict.textContent(), '= simulated ✓');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a refused cost is shown at its own field, the one the engine names, and nowhere else', async () => {
  const { page } = await browser.page('?schedule=dualpipe&ranks=8&micro-batches=20&cost=F=1,B=2,W=1,FB=3');
  await page.fill('[data-testid=cost-fb]', '9');
  await page.waitForSelector('[data-testid=cost-fb-refusal]:not([hidden])');
  assert.match(await text(page, 'cost-fb-refusal'), /cost FB \(9\) must lie in \[max\(F,B\), F\+B\] = \[2, 3\]/);
  assert.equal(await page.getAttribute('[data-testid=cost-fb]', 'aria-invalid'), 'true');
  for (const other of ['cost-f', 'cost-b', 'cost-w', 'ranks', 'micro-batches'])
    assert.equal(await page.getAttribute(`[data-testid=${other}]`, 'aria-invalid'), 'false', other);
  // The sliders keep the costs the engine last accepted.
  assert.equal(await page.inputValue('[data-testid=cost-f-range]'), '1');
  await page.fill('[data-testid=cost-w]', '5');
  await page.waitForSelector('[data-testid=cost-w-refusal]:not([hidden])');
  assert.equal(await page.getAttribute('[data-testid=cost-w]', 'aria-invalid'), 'true');
  await page.close();
});

test('moving F keeps F&B within the engine\'s bounds [max(F,B), F+B]', async () => {
  const { page } = await browser.page('?schedule=dualpipe&ranks=8&micro-batches=20&cost=F=1,B=2,W=1,FB=2.5');
  await page.locator('[data-testid=cost-f-range]').evaluate((range) => {
    range.value = '4';
    range.dispatchEvent(new Event('input', { bubbles: true }));
  });
  const address = await addressMatching(page, /cost=F=4,/);
  assert.equal(address.searchParams.get('cost'), 'F=4,B=2,W=1,FB=4');
  assert.equal(await page.getAttribute('[data-testid=cost-fb-range]', 'min'), '4');
  assert.equal(await page.getAttribute('[data-testid=cost-fb-range]', 'max'), '6');
  await page.close();
});

test('the download buttons are the engine\'s export formats in its order, with PNG beside SVG', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=8');
  const buttons = await page.locator('.export-bar button').evaluateAll((bs) => bs.map((b) => [b.dataset.testid, b.textContent]));
  assert.deepEqual(buttons, [
    ['export-svg', 'SVG'],
    ['export-png', 'PNG 2×'],
    ['export-csv', 'CSV'],
    ['export-chrome-trace', 'Chrome trace (Perfetto)'],
    ['export-json', 'JSON'],
    ['export-actions', 'PyTorch actions'],
  ]);
  assert.deepEqual(problems, []);
  await page.close();
});
