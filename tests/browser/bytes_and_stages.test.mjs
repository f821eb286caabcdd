// Issue 14 on the page: the Memory tab in GB on a model and cluster (core's plan examples, priced as
// `pipesim simulate --model` prices them), and the per-stage cost table behind the cost sliders,
// which writes the same --stage-cost entries as the text field.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { addressMatching, openBrowser } from './harness.mjs';

const CLI = fileURLToPath(new URL('../../build/pipesim', import.meta.url));
const EXAMPLE = fileURLToPath(new URL('../../core/data/plan_examples/deepseek-v3.json', import.meta.url));

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const text = (page, id) => page.textContent(`[data-testid=${id}]`);

/** The CLI's summary of a run. */
function cli(...args) {
  const r = spawnSync(CLI, ['simulate', ...args, '--format', 'summary'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** The CLI's heaviest rank on the DeepSeek-V3 example (the first of the highest) and its total in GB with
 *  one decimal, as the page writes it. */
function heaviest(schedule) {
  const ranks = cli('--model', EXAMPLE, '--schedule', schedule).per_rank.map((r) => r.memory_bytes);
  const top = ranks.reduce((a, b) => (b.total > a.total ? b : a));
  return { rank: top.rank, gb: String(Number((top.total / 1e9).toFixed(1))) };
}
const peakGb = (schedule) => heaviest(schedule).gb;

test('Memory in GB on DeepSeek-V3: axes in GB and time, the GPU line at 80 GB, the peak, and GPipe named as not fitting', async () => {
  const { page, problems } = await browser.page('?schedule=dualpipe&view=memory&compare=gpipe,1f1b');
  await page.selectOption('[data-testid=memory-model]', 'deepseek-v3');
  await page.waitForSelector('[data-testid=memory-bytes-chart]');
  assert.equal(await text(page, 'memory-y-axis'), 'memory (GB)');
  assert.equal(await text(page, 'memory-x-axis'), 'time (ms)');
  const ticks = await page.$$eval('[data-testid=memory-bytes-chart] .memory-y-tick', (ts) => ts.map((t) => t.textContent));
  assert.ok(ticks.length >= 3 && ticks.every((t) => / GB$/.test(t)), ticks.join(' | '));
  assert.equal(await page.locator('[data-testid=memory-gpu-line]').count(), 1);
  assert.match(await page.textContent('[data-testid=memory-bytes-chart]'), /GPU memory 80 GB/);
  const top = heaviest('dualpipe');
  assert.equal(await text(page, 'memory-peak-bytes'), `peak ${top.gb} GB (rank ${top.rank})`);
  // GPipe keeps all 120 micro-batches' activations: it does not fit; DualPipe and 1F1B do (as the CLI says).
  assert.equal(cli('--model', EXAMPLE, '--schedule', 'gpipe').memory.fits, false);
  assert.equal(cli('--model', EXAMPLE, '--schedule', '1f1b').memory.fits, true);
  assert.equal(await text(page, 'memory-fits'), `Do not fit in one GPU's memory: GPipe (${peakGb('gpipe')} GB).`);
  assert.match(await text(page, 'memory-model-caption'), /DeepSeek-V3-like: 16 ranks .* 120 micro-batches/);
  const rows = await page.locator('[data-testid=memory-bytes-table] tbody tr').count();
  assert.equal(rows, 16);
  await addressMatching(page, /memory-model=deepseek-v3/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the model in the URL opens the Memory tab in bytes; a schedule the model refuses is named with its reason; none goes back to chunks', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&view=memory&compare=chimera&memory-model=deepseek-v3');
  await page.waitForSelector('[data-testid=memory-bytes-chart]');
  assert.equal(await page.inputValue('[data-testid=memory-model]'), 'deepseek-v3');
  assert.match(await text(page, 'memory-fits'), /Every compared schedule fits/);
  assert.match(await text(page, 'memory-fits'), /cannot run on this model: .*multiple of the stage count = 16/);
  await page.selectOption('[data-testid=memory-model]', '');
  await page.waitForSelector('[data-testid=memory-bytes]', { state: 'hidden' });
  assert.equal(await page.isVisible('[data-testid=parameters-table]'), true);
  await page.waitForFunction(() => !location.search.includes('memory-model'));
  assert.deepEqual(problems, []);
  await page.close();
});

test('the stage table has one row per stage as core counts them, and empty cells show the uniform cost', async () => {
  const { page } = await browser.page('?schedule=dualpipev&ranks=4&micro-batches=8&cost=F=1,B=2,W=1,FB=3');
  // DualPipeV on 4 ranks has 8 stages (the run's summary.stages).
  assert.equal(await page.locator('[data-testid=stage-table] tbody tr').count(), 8);
  assert.equal(await page.getAttribute('[data-testid=stage-cell-7-FB]', 'placeholder'), '3');
  assert.equal(await page.inputValue('[data-testid=stage-cell-0-F]'), '');
  await page.fill('[data-testid=ranks]', '2');
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=stage-table] tbody tr').length === 4);
  await page.close();
});

test('editing a cell: the timeline\'s makespan is the CLI\'s with that --stage-cost, the text field and the URL follow, and the URL gives the table back', async () => {
  const base = ['--schedule', 'dualpipe', '--ranks', '4', '--micro-batches', '8', '--cost', 'F=1,B=2,W=1,FB=3'];
  const { page, problems } = await browser.page('?schedule=dualpipe&ranks=4&micro-batches=8&cost=F=1,B=2,W=1,FB=3');
  assert.equal(await text(page, 'makespan'), String(cli(...base).makespan));
  await page.fill('[data-testid=stage-cell-0-F]', '2');
  const heavy = cli(...base, '--stage-cost', '0:F=2').makespan;
  await page.waitForFunction((m) => document.querySelector('[data-testid=makespan]')?.textContent === m, String(heavy));
  await page.fill('[data-testid=stage-cell-0-B]', '4');
  await page.fill('[data-testid=stage-cell-0-FB]', '6');
  const both = cli(...base, '--stage-cost', '0:F=2,B=4,FB=6').makespan;
  await page.waitForFunction((m) => document.querySelector('[data-testid=makespan]')?.textContent === m, String(both));
  assert.equal(await page.inputValue('[data-testid=stage-cost]'), '0:F=2,B=4,FB=6');
  const address = await addressMatching(page, /stage-cost=0:F=2,B=4,FB=6/);
  // The same address in a new page: the same table and makespan.
  const { page: again } = await browser.page(address.search);
  assert.equal(await again.inputValue('[data-testid=stage-cell-0-B]'), '4');
  assert.equal(await again.inputValue('[data-testid=stage-cell-0-FB]'), '6');
  assert.equal(await text(again, 'makespan'), String(both));
  await again.close();
  // Clearing the cells gives the uniform costs back.
  for (const key of ['F', 'B', 'FB']) await page.fill(`[data-testid=stage-cell-0-${key}]`, '');
  await page.waitForFunction((m) => document.querySelector('[data-testid=makespan]')?.textContent === m, String(cli(...base).makespan));
  assert.equal(await page.inputValue('[data-testid=stage-cost]'), '');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the text field and the presets fill the table; a refused cell shows core\'s message at the cell without moving the layout', async () => {
  const { page } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=4&cost=F=1,B=2,W=1');
  await page.selectOption('[data-testid=stage-preset]', 'head');
  await page.waitForFunction(() => document.querySelector('[data-testid=stage-cell-3-F]')?.value === '2');
  assert.equal(await page.inputValue('[data-testid=stage-cell-3-B]'), '4');
  await page.fill('[data-testid=stage-cost]', '1:F=3');
  await page.waitForFunction(() => document.querySelector('[data-testid=stage-cell-1-F]')?.value === '3');
  assert.equal(await page.inputValue('[data-testid=stage-cell-3-F]'), '');
  const before = await page.locator('[data-testid=stage-table]').boundingBox();
  const sliders = await page.locator('[data-testid=rank-speed]').boundingBox();
  // FB outside [max(F,B), F+B] for stage 2: core's bounds refuse it.
  await page.fill('[data-testid=stage-cell-2-FB]', '9');
  await page.waitForSelector('[data-testid=stage-table-refusal]:not([hidden])');
  assert.match(await text(page, 'stage-table-refusal'), /stage 2: cost FB \(9\) must lie in \[max\(F,B\), F\+B\] = \[2, 3\]/);
  assert.equal(await page.getAttribute('[data-testid=stage-cell-2-FB]', 'aria-invalid'), 'true');
  assert.deepEqual(await page.locator('[data-testid=stage-table]').boundingBox(), before);
  assert.deepEqual(await page.locator('[data-testid=rank-speed]').boundingBox(), sliders);
  await page.fill('[data-testid=stage-cell-2-FB]', '3');
  await page.waitForSelector('[data-testid=stage-table-refusal]', { state: 'hidden' });
  await page.close();
});

test('a page opened on refused per-stage costs still has its table, the refused entry in its cell', async () => {
  const { page } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=4&cost=F=1,B=2,W=1&stage-cost=2:FB=9');
  await page.waitForSelector('[data-testid=stage-table-refusal]:not([hidden])', { state: 'attached' });
  assert.equal(await page.locator('[data-testid=stage-table] tbody tr').count(), 4);
  assert.equal(await page.inputValue('[data-testid=stage-cell-2-FB]'), '9');
  assert.match(await text(page, 'stage-table-refusal'), /stage 2: cost FB \(9\) must lie in/);
  await page.fill('[data-testid=stage-cell-2-FB]', '');
  await page.waitForFunction(() => document.querySelector('[data-testid=makespan]')?.textContent === '21');
  await page.close();
});

test('at 390 px the stage table scrolls inside its box and the page does not scroll sideways', async () => {
  const { page } = await browser.page('?schedule=dualpipev&ranks=8&micro-batches=16', { width: 390, height: 844 });
  await page.click('.drawer-toggle');
  await page.locator('[data-testid=stage-table]').scrollIntoViewIfNeeded();
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 390, `page is ${wide} px wide`);
  const box = await page.locator('[data-testid=stage-table] .stage-table-scroll').evaluate((e) => ({ client: e.clientHeight, scroll: e.scrollHeight }));
  assert.ok(box.scroll > box.client, 'the 16-row table scrolls inside its box');
  await page.close();
});
