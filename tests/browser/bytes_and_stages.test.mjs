// Issue 14 on the page: the Memory tab in GB on a model and cluster (core's plan examples, priced as
// `pipesim simulate --model` prices them), and the per-stage cost table behind the cost sliders,
// which writes the same --stage-cost entries as the text field.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** The DeepSeek-V3 example as a file whose model.pp is `pp` (the page's ranks cut the same GPUs into
 *  that many stages: the CLI's --model takes the file's pipeline size). */
function exampleAt(pp) {
  const file = JSON.parse(readFileSync(EXAMPLE, 'utf8'));
  file.model.pp = pp;
  const path = join(mkdtempSync(join(tmpdir(), 'pipesim-memory-')), `deepseek-v3-pp${pp}.json`);
  writeFileSync(path, JSON.stringify(file));
  return path;
}

/** The file's own sizes, which the first tests open the page at. */
const FILE_SIZES = 'ranks=16&micro-batches=120';

/** The CLI's heaviest rank on the DeepSeek-V3 example (the first of the highest) and its total in GB with
 *  one decimal, as the page writes it. */
function heaviest(schedule, ...args) {
  const ranks = cli('--model', EXAMPLE, '--schedule', schedule, ...args).per_rank.map((r) => r.memory_bytes);
  const top = ranks.reduce((a, b) => (b.total > a.total ? b : a));
  return { rank: top.rank, gb: String(Number((top.total / 1e9).toFixed(1))) };
}
const peakGb = (schedule, ...args) => heaviest(schedule, ...args).gb;

test('Memory in GB on DeepSeek-V3: axes in GB and time, the GPU line at 80 GB, the peak, and GPipe named as not fitting', async () => {
  const { page, problems } = await browser.page(`?schedule=dualpipe&${FILE_SIZES}&view=memory&compare=gpipe,1f1b`);
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
  assert.match(await text(page, 'memory-model-caption'), /DeepSeek-V3-like at the sizes set in the controls: 16 ranks × 120 micro-batches \(the file's own are 16 × 120;/);
  const rows = await page.locator('[data-testid=memory-bytes-table] tbody tr').count();
  assert.equal(rows, 16);
  await addressMatching(page, /memory-model=deepseek-v3/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the model in the URL opens the Memory tab in bytes; a schedule the model refuses is named with its reason; none goes back to chunks', async () => {
  const { page, problems } = await browser.page(`?schedule=1f1b&${FILE_SIZES}&view=memory&compare=chimera&memory-model=deepseek-v3`);
  await page.waitForSelector('[data-testid=memory-bytes-chart]');
  assert.equal(await page.inputValue('[data-testid=memory-model]'), 'deepseek-v3');
  // Chimera is refused on this model: it neither fits nor overflows, so the sentence speaks only of those that ran.
  assert.match(await text(page, 'memory-fits'), /^Every compared schedule that runs on this model fits in one GPU's memory\./);
  assert.match(await text(page, 'memory-fits'), /cannot run on this model: .*multiple of the stage count = 16/);
  await page.selectOption('[data-testid=memory-model]', '');
  await page.waitForSelector('[data-testid=memory-bytes]', { state: 'hidden' });
  assert.equal(await page.isVisible('[data-testid=parameters-table]'), true);
  await page.waitForFunction(() => !location.search.includes('memory-model'));
  assert.deepEqual(problems, []);
  await page.close();
});

test('the Memory tab runs the model at the controls\' ranks and micro-batches, says so, follows the sliders, and runs in the worker', async () => {
  const { page, problems } = await browser.page('?schedule=dualpipe&ranks=8&micro-batches=20&view=memory&compare=gpipe&memory-model=deepseek-v3');
  await page.waitForSelector('[data-testid=memory-bytes-chart]');
  // The same 2048 GPUs cut into 8 stages: what `pipesim simulate --model` gives for a file with model.pp 8.
  const at8 = exampleAt(8);
  const top = (schedule, mb) => {
    const ranks = cli('--model', at8, '--schedule', schedule, '--micro-batches', String(mb)).per_rank.map((r) => r.memory_bytes);
    const t = ranks.reduce((a, b) => (b.total > a.total ? b : a));
    return `peak ${Number((t.total / 1e9).toFixed(1))} GB (rank ${t.rank})`;
  };
  assert.equal(await text(page, 'memory-model-caption'),
    'DeepSeek-V3-like at the sizes set in the controls: 8 ranks × 20 micro-batches (the file\'s own are 16 × 120; its 2048 GPUs are cut into 8 pipeline stages), priced as pipesim simulate --model prices it; one GPU holds 80 GB.');
  assert.equal(await page.locator('[data-testid=memory-bytes-table] tbody tr').count(), 8);
  assert.equal(await text(page, 'memory-peak-bytes'), top('dualpipe', 20));
  const memory = () => page.evaluate(() => performance.getEntriesByName('pipesim:memory').map((m) => m.detail));
  assert.deepEqual((await memory()).at(-1), { where: 'worker', runs: 2 });
  // A slider moved: the tab follows at once, at the new size.
  await page.fill('[data-testid=micro-batches]', '40');
  await page.waitForFunction(() => /× 40 micro-batches/.test(document.querySelector('[data-testid=memory-model-caption]')?.textContent ?? ''));
  assert.equal(await text(page, 'memory-peak-bytes'), top('dualpipe', 40));
  assert.equal((await memory()).at(-1).where, 'worker');
  assert.deepEqual(problems, []);
  await page.close();
});

test('ranks the cluster cannot be cut into are refused on the tab with core\'s reason, and the next size draws again', async () => {
  // 2048 GPUs in 6 stages: 1F1B runs at 6 ranks, the model cannot.
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=6&micro-batches=12&view=memory&compare=&memory-model=deepseek-v3');
  await page.waitForSelector('[data-testid=memory-model-error]');
  // The refusal names the slider that set the size, not the file's model.pp.
  assert.equal(await text(page, 'memory-model-error'), "ranks 6 does not divide the model file's cluster.gpus (2048): every pipeline stage needs as many GPUs as the others");
  assert.equal(await page.locator('[data-testid=memory-bytes-chart]').count(), 0, 'nothing drawn half-way');
  await page.fill('[data-testid=ranks]', '4');
  await page.waitForSelector('[data-testid=memory-bytes-chart]');
  assert.equal(await page.locator('[data-testid=memory-bytes-table] tbody tr').count(), 4);
  assert.deepEqual(problems, []);
  await page.close();
});

for (const [lang, words] of [
  ['en', 'The address names no model and cluster called ‘gpt-5’ (memory-model); the known ones are deepseek-v3, small-dense, moe-one-node-ep. The tab shows activations in chunks.'],
  ['pt-BR', 'O endereço não traz nenhum modelo e cluster chamado ‘gpt-5’ (memory-model); os conhecidos são deepseek-v3, small-dense, moe-one-node-ep. A aba mostra as ativações em chunks.'],
  ['zh-CN', '地址中没有名为“gpt-5”的模型与集群（memory-model）；已知的有 deepseek-v3, small-dense, moe-one-node-ep。此标签页显示以块计的激活。'],
]) {
  test(`an unknown memory-model is refused on the tab in ${lang}, the tab keeps its layout and shows chunks, and a picked model replaces it`, async () => {
    const { page, problems } = await browser.page(`?view=memory&memory-model=gpt-5&lang=${lang}`);
    await page.waitForSelector('[data-testid=memory-model-unknown]:not([hidden])');
    assert.equal(await text(page, 'memory-model-unknown'), words);
    assert.equal(await page.getAttribute('[data-testid=memory-model-unknown]', 'role'), 'alert');
    assert.equal(await page.isVisible('[data-testid=memory-model]'), true);
    assert.equal(await page.inputValue('[data-testid=memory-model]'), '');
    assert.equal(await page.isVisible('[data-testid=parameters-table]'), true);
    assert.equal(await page.isVisible('[data-testid=memory-bytes]'), false);
    await page.selectOption('[data-testid=memory-model]', 'small-dense');
    await page.waitForSelector('[data-testid=memory-bytes-chart]');
    assert.equal(await page.isVisible('[data-testid=memory-model-unknown]'), false);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('a long run of markup as memory-model is quoted cut short as text, nothing injected', async () => {
  const markup = '<img src=x onerror="window.__pwned=1">'.repeat(50);
  const { page, problems } = await browser.page(`?view=memory&memory-model=${encodeURIComponent(markup)}`);
  await page.waitForSelector('[data-testid=memory-model-unknown]:not([hidden])');
  const said = await text(page, 'memory-model-unknown');
  assert.ok(said.includes(`‘${markup.slice(0, 40)}…’`), said.slice(0, 200));
  assert.ok(said.length < 300);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await page.locator('#panel-memory img').count(), 0);
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
