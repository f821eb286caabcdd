// Per-stage costs and slow GPUs on the page: the fields under the cost sliders, in the URL, on every view
// (issue 14).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { addressMatching, openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const text = (page, id) => page.textContent(`[data-testid=${id}]`);

test('a rank at half speed: 1F1B 4x4 takes 33 instead of 21, on the Timeline and in Compare', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=4&cost=F=1,B=2,W=1');
  assert.equal(await text(page, 'makespan'), '21');
  await page.fill('[data-testid=rank-speed]', '3:0.5');
  await page.waitForFunction(() => document.querySelector('[data-testid=makespan]')?.textContent === '33');
  await addressMatching(page, /rank-speed=3:0\.5/);
  await page.click('#tab-compare');
  assert.equal(await text(page, 'compare-makespan-1f1b'), '33');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a speed the engine refuses shows its message on the field and keeps the last drawing', async () => {
  const { page } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=4&cost=F=1,B=2,W=1&rank-speed=3:0.5');
  assert.equal(await text(page, 'makespan'), '33');
  await page.fill('[data-testid=rank-speed]', '3:0');
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  assert.match(await text(page, 'error'), /--rank-speed factor of rank 3 must be a number > 0, got '0'/);
  assert.equal(await page.getAttribute('[data-testid=rank-speed]', 'aria-invalid'), 'true');
  assert.equal(await page.getAttribute('[data-testid=ranks]', 'aria-invalid'), 'false');
  assert.equal(await text(page, 'makespan'), '33');
  await page.close();
});

test('per-stage costs: a preset makes the LM head stage twice as heavy, in the URL and on both bases', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=4&cost=F=1,B=2,W=1');
  await page.selectOption('[data-testid=stage-preset]', 'head');
  await page.waitForFunction(() => document.querySelector('[data-testid=makespan]')?.textContent === '33');
  assert.equal(await page.inputValue('[data-testid=stage-cost]'), 'last:F=2,B=4,W=2,FB=6');
  await addressMatching(page, /stage-cost=last:F=2,B=4,W=2,FB=6/);
  // On the same-model basis 1F1B cuts the model as the ranks do: the same 33.
  await page.click('#tab-compare');
  assert.equal(await text(page, 'compare-makespan-1f1b'), '33');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a per-stage cost the engine refuses marks the field', async () => {
  const { page } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=4&cost=F=1,B=2,W=1');
  await page.fill('[data-testid=stage-cost]', '9:F=2');
  await page.waitForSelector('[data-testid=error]:not([hidden])');
  assert.match(await text(page, 'error'), /--stage-cost stage 9 is out of range: 1f1b on 4 ranks has 4 stages/);
  assert.equal(await page.getAttribute('[data-testid=stage-cost]', 'aria-invalid'), 'true');
  await page.close();
});

test('on the same-model basis the per-stage costs are the model\'s, re-cut by each schedule as the CLI does', async () => {
  const { page, problems } = await browser.page('?view=compare&compare=dualpipev&stage-cost=first:F=2,B=4,W=2,FB=6');
  // pipesim simulate --schedule dualpipev --model-stages 8 --stage-cost first:F=2,B=4,W=2,FB=6: 94.5
  assert.equal(await text(page, 'compare-makespan-dualpipev'), '94.5');
  // DualPipe cuts the model as the ranks do: as --stage-cost first:F=2,B=4,W=2,FB=6 alone, 91.
  assert.equal(await text(page, 'compare-makespan-dualpipe'), '91');
  assert.deepEqual(problems, []);
  await page.close();
});
