// Controls that only offer what runs: every slider position is a value the schedule accepts, cost
// sliders move in tenths, a refused typed value is shown at its field without moving anything, and a
// cost the schedule has no op for is disabled with the reason.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { addressMatching, openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const text = (page, id) => page.textContent(`[data-testid=${id}]`);

/** Counts every time the error box is shown, from before the page starts. */
async function countRefusals(page) {
  await page.evaluate(() => {
    window.refusalsSeen = [];
    const box = document.querySelector('[data-testid=error]');
    new MutationObserver(() => !box.hidden && window.refusalsSeen.push(box.textContent)).observe(box, { attributes: true, childList: true, subtree: true });
  });
}

/** Drags `testid`'s slider from its first position to its last with the keyboard, one step per key,
 *  and returns the values the field showed on the way. */
async function dragAcross(page, testid) {
  await page.focus(`[data-testid=${testid}-range]`);
  await page.keyboard.press('Home');
  const seen = [await page.inputValue(`[data-testid=${testid}]`)];
  for (;;) {
    await page.keyboard.press('ArrowRight');
    const value = await page.inputValue(`[data-testid=${testid}]`);
    if (value === seen.at(-1)) return seen.map(Number);
    seen.push(value);
  }
}

/** The same drag sent from the page (every position of the range in turn, as a fast drag does). */
async function sweepAcross(page, testid) {
  return page.evaluate((id) => {
    const range = document.querySelector(`[data-testid=${id}-range]`);
    const field = document.querySelector(`[data-testid=${id}]`);
    const seen = [];
    for (let v = Number(range.min); v <= Number(range.max); v += Number(range.step)) {
      range.value = String(v);
      range.dispatchEvent(new Event('input', { bubbles: true }));
      seen.push(Number(field.value));
    }
    range.value = range.min;
    range.dispatchEvent(new Event('input', { bubbles: true }));
    return seen;
  }, testid);
}

const evens = (from, to) => Array.from({ length: (to - from) / 2 + 1 }, (_, k) => from + 2 * k);

test('DualPipe at 8 ranks: the micro-batch slider steps through the 57 accepted counts, none refused', async () => {
  const { page, problems } = await browser.page('?schedule=dualpipe&ranks=8&micro-batches=20');
  await countRefusals(page);
  assert.deepEqual(await dragAcross(page, 'micro-batches'), evens(16, 128));
  assert.deepEqual(await page.evaluate(() => window.refusalsSeen), []);
  assert.match(await text(page, 'makespan'), /^\d[\d,]*$/, 'the last position is drawn');
  await addressMatching(page, /micro-batches=128(&|$)/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('every schedule: each size slider across its whole range is never refused', async () => {
  const { page, problems } = await browser.page('');
  const names = await page.$$eval('[data-testid=schedule] option', (options) => options.map((o) => o.value).filter((v) => v !== 'custom'));
  assert.ok(names.length >= 9);
  await countRefusals(page);
  const report = {};
  for (const name of names) {
    await page.selectOption('[data-testid=schedule]', name);
    // Start from sizes the schedule accepts: the two-direction and interleaved ones need some.
    await page.fill('[data-testid=ranks]', '4');
    await page.fill('[data-testid=micro-batches]', '16');
    await page.evaluate(() => (window.refusalsSeen = []));
    const sizes = ['micro-batches', 'ranks'];
    if (await page.isVisible('[data-testid=virtual-stages-range]')) sizes.push('virtual-stages');
    for (const size of sizes) {
      // Each drag ends back at the slider's first position, from where the next slider is offered.
      const values = await sweepAcross(page, size);
      report[`${name} ${size}`] = values;
      assert.ok(values.length >= 1, `${name} ${size}`);
    }
    assert.deepEqual(await page.evaluate(() => window.refusalsSeen), [], `${name}: no position refused`);
  }
  // At 4 ranks DualPipe offers the even micro-batch counts from 8; back at 8 micro-batches, the even
  // rank counts up to 4. 1F1B offers every count.
  assert.deepEqual(report['dualpipe micro-batches'], evens(8, 128));
  assert.deepEqual(report['dualpipe ranks'], [2, 4]);
  assert.equal(report['1f1b micro-batches'].length, 128);
  assert.equal(report['1f1b ranks'].length, 32);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a cost slider moves in tenths: one step writes F=1.1, never F=1.754263', async () => {
  const { page, problems } = await browser.page('?schedule=dualpipe&ranks=8&micro-batches=20');
  await page.focus('[data-testid=cost-f-range]');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.inputValue('[data-testid=cost-f]'), '1.1');
  const address = await addressMatching(page, /cost=F=1\.1,/);
  assert.match(address.searchParams.get('cost'), /^F=1\.1,B=2,W=1,FB=3(\.1)?$/);
  for (let k = 0; k < 6; k++) await page.keyboard.press('ArrowRight');
  assert.equal(await page.inputValue('[data-testid=cost-f]'), '1.7');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a refused typed value is shown at its field, and the views do not move', async () => {
  const { page, problems } = await browser.page('?schedule=dualpipe&ranks=8&micro-batches=20');
  const top = () => page.locator('#panels').evaluate((e) => e.getBoundingClientRect().top);
  const before = await top();
  await page.fill('[data-testid=ranks]', '7');
  assert.equal(await page.isVisible('[data-testid=ranks-refusal]'), true);
  assert.match(await text(page, 'ranks-refusal'), /dualpipe needs an even number of ranks.*got 7 ranks/);
  assert.equal(await page.getAttribute('[data-testid=ranks]', 'aria-invalid'), 'true');
  assert.equal(await top(), before, 'the views stay where they were');
  await page.fill('[data-testid=ranks]', '8');
  assert.equal(await page.isHidden('[data-testid=ranks-refusal]'), true);
  assert.equal(await top(), before);
  assert.deepEqual(problems, []);
  await page.close();
});

test('W and F&B are disabled with the reason for 1F1B, which has neither op, and enabled for DualPipe', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=8');
  for (const id of ['cost-w', 'cost-fb']) {
    assert.equal(await page.isDisabled(`[data-testid=${id}]`), true, id);
    assert.equal(await page.isDisabled(`[data-testid=${id}-range]`), true, id);
  }
  assert.match(await text(page, 'cost-w-reason'), /no W op/);
  assert.match(await text(page, 'cost-fb-reason'), /no F&B op/);
  assert.equal(await page.isDisabled('[data-testid=cost-f]'), false);
  await page.selectOption('[data-testid=schedule]', 'zb-h1');
  assert.equal(await page.isDisabled('[data-testid=cost-w]'), false, 'ZB-H1 splits its backward');
  assert.equal(await page.isDisabled('[data-testid=cost-fb]'), true);
  await page.selectOption('[data-testid=schedule]', 'dualpipe');
  await page.fill('[data-testid=micro-batches]', '20');
  await page.fill('[data-testid=ranks]', '8');
  for (const id of ['cost-w', 'cost-fb']) assert.equal(await page.isDisabled(`[data-testid=${id}]`), false, id);
  assert.equal(await page.isHidden('[data-testid=cost-w-reason]'), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the closed-form card writes its numbers rounded: = 6, not = 5.999999999999999', async () => {
  const { page, problems } = await browser.page('?schedule=dualpipe&ranks=8&micro-batches=20&cost=F=1,B=1.1,W=0.1,FB=1.2');
  const card = await page.locator('[data-testid=formula]').locator('xpath=..').textContent();
  assert.match(card, /\(8\/2-1\)\(1\.2\+1\.1-3\*0\.1\) = 6(?!\.)/);
  assert.doesNotMatch(card, /\d\.\d{7,}/);
  assert.deepEqual(problems, []);
  await page.close();
});
