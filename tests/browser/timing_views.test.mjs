// The timing views of issue 15 in the page and the element: Compare with the makespan under both
// timings, the waits of the reference timing in an aggregated timeline, and the element's timing and
// sends attributes. Expected numbers are the CLI's (pipesim simulate --timing ... --format summary).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const text = (page, id) => page.textContent(`[data-testid=${id}]`);
const textIs = (page, id, expected) =>
  page.waitForFunction(([id, expected]) => document.querySelector(`[data-testid=${id}]`)?.textContent === expected, [id, expected]);

// DualPipe 4 x 8 with W large and comm > 0: dataflow 33.92 (span 33.42), reference (rendezvous)
// 37.44 (span 36.44); 1F1B: 52 and 52.5. The same on the whole-model basis (the model cut into 4 stages of these costs).
const WIDE_W = 'schedule=dualpipe&ranks=4&micro-batches=8&cost=F=2,B=2,W=1.5,FB=2.48,comm=0.5';

test('Compare shows each schedule\'s makespan under both timings and their gap, the makespan column unchanged', async () => {
  const { page, problems } = await browser.page(`?${WIDE_W}&view=compare&compare=1f1b`);
  assert.equal(await text(page, 'compare-makespan-dualpipe'), '33.92 (span 33.42)');
  assert.equal(await page.locator('[data-testid=compare-reference-dualpipe]').count(), 0, 'one timing until asked');
  await page.check('[data-testid=compare-both-timings]');
  await textIs(page, 'compare-reference-dualpipe', '37.44');
  assert.equal(await text(page, 'compare-dataflow-dualpipe'), '33.92');
  assert.equal(await text(page, 'compare-gap-dualpipe'), '+3.52');
  assert.deepEqual(
    [await text(page, 'compare-dataflow-1f1b'), await text(page, 'compare-reference-1f1b'), await text(page, 'compare-gap-1f1b')],
    ['52', '52.5', '+0.5'],
  );
  assert.equal(await text(page, 'compare-makespan-dualpipe'), '33.92 (span 33.42)', 'the makespan column is the page\'s timing');
  // The page's timing switched to the reference runtime: the makespan column follows, both columns stay.
  await page.selectOption('[data-testid=timing]', 'reference');
  await textIs(page, 'compare-makespan-dualpipe', '37.44 (span 36.44)');
  assert.equal(await text(page, 'compare-dataflow-dualpipe'), '33.92');
  assert.equal(await text(page, 'compare-reference-dualpipe'), '37.44');
  assert.equal(await text(page, 'compare-makespan-1f1b'), '52.5');
  assert.equal(await page.isChecked('[data-testid=compare-both-timings]'), true);
  // Unticked: the table is as before.
  await page.uncheck('[data-testid=compare-both-timings]');
  await page.waitForFunction(() => !document.querySelector('[data-testid=compare-reference-dualpipe]'));
  assert.deepEqual(problems, []);
  await page.close();
});

test('a link with compare-timings=both opens Compare with both timings; the switch writes and clears it in the address', async () => {
  const { page, problems } = await browser.page(`?${WIDE_W}&view=compare&compare=1f1b&compare-timings=both`);
  await textIs(page, 'compare-reference-dualpipe', '37.44');
  assert.equal(await page.isChecked('[data-testid=compare-both-timings]'), true);
  assert.deepEqual(
    await Promise.all(['dataflow', 'reference', 'gap'].flatMap((c) => ['dualpipe', '1f1b'].map((n) => text(page, `compare-${c}-${n}`)))),
    ['33.92', '52', '37.44', '52.5', '+3.52', '+0.5'],
  );
  const heads = await page.$$eval('[data-testid=compare-table] thead th', (ths) => ths.map((th) => th.textContent));
  assert.equal(heads.length, 11, heads.join(' | '));
  await page.uncheck('[data-testid=compare-both-timings]');
  await page.waitForFunction(() => !location.search.includes('compare-timings'));
  await page.waitForFunction(() => !document.querySelector('[data-testid=compare-reference-dualpipe]'));
  await page.check('[data-testid=compare-both-timings]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('compare-timings') === 'both');
  await textIs(page, 'compare-reference-dualpipe', '37.44');
  // The link as the page wrote it opens the same table.
  const link = await page.evaluate(() => location.search);
  const { page: shared, problems: sharedProblems } = await browser.page(link);
  await textIs(shared, 'compare-reference-1f1b', '52.5');
  assert.equal(await shared.isChecked('[data-testid=compare-both-timings]'), true);
  assert.deepEqual(problems, []);
  assert.deepEqual(sharedProblems, []);
  await shared.close();
  await page.close();
});

test('a compare-timings value other than both is ignored: Compare opens with one timing', async () => {
  const { page, problems } = await browser.page(`?${WIDE_W}&view=compare&compare=1f1b&compare-timings=${encodeURIComponent('<b>both</b>')}`);
  await textIs(page, 'compare-makespan-dualpipe', '33.92 (span 33.42)');
  assert.equal(await page.isChecked('[data-testid=compare-both-timings]'), false);
  assert.equal(await page.locator('[data-testid=compare-reference-dualpipe]').count(), 0);
  assert.equal(await page.locator('#panel-compare b').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('Compare\'s both timings of large runs are simulated in the worker, to the CLI\'s values', async () => {
  // 8 x 2048: some 100 000 ops per run, over the main thread's bound.
  const { page, problems } = await browser.page('?schedule=dualpipe&ranks=8&micro-batches=2048&cost=F=2,B=2,W=1.5,FB=2.48,comm=0.5&view=compare&compare=1f1b&basis=stage');
  await page.waitForSelector('[data-testid=compare-makespan-1f1b]', { timeout: 60000 });
  await page.check('[data-testid=compare-both-timings]');
  await page.waitForSelector('[data-testid=compare-reference-1f1b]', { timeout: 60000 });
  const where = await page.evaluate(() => performance.getEntriesByName('pipesim:update').at(-1).detail.where);
  assert.equal(where, 'worker');
  const row = (name) => Promise.all(['dataflow', 'reference', 'gap'].map((c) => text(page, `compare-${c}-${name}`)));
  assert.deepEqual(await row('dualpipe'), ['5999.16', '6134.72', '+135.56']);
  assert.deepEqual(await row('1f1b'), ['10018', '10127', '+109']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('Compare says a schedule given as text without send/receive actions has no reference timing', async () => {
  const custom = encodeURIComponent('0F0,0F1,0B0,0B1\n1F0,1B0,1F1,1B1');
  const { page, problems } = await browser.page(`?schedule=custom&custom=${custom}&ranks=2&micro-batches=2&view=compare&compare=1f1b&timing=reference`);
  await page.check('[data-testid=compare-both-timings]');
  await textIs(page, 'compare-reference-1f1b', '9');
  assert.equal(await text(page, 'compare-reference-custom'), 'no send/receive actions: dataflow only');
  assert.equal(await text(page, 'compare-dataflow-custom'), '9');
  assert.equal(await text(page, 'compare-gap-custom'), '–');
  assert.equal(await text(page, 'compare-gap-1f1b'), '0');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a reference run drawn aggregated still hatches its waits, and a column\'s waits are on hover', async () => {
  // 8 x 512 micro-batches: about 12 000 ops, cells well under 2 device pixels.
  const large = 'schedule=dualpipe&ranks=8&micro-batches=512&cost=F=2,B=2,W=1.5,FB=2.48,comm=0.5';
  const { page, problems } = await browser.page(`?${large}`);
  const canvas = page.locator('#panel-timeline canvas.timeline-canvas').first();
  const hooks = () => canvas.evaluate((c) => ({ ...c.dataset }));
  let h = await hooks();
  assert.equal(h.render, 'aggregated');
  // Dataflow: the picture and one stretch per rank, no waits.
  assert.equal(Number(h.drawCalls), 1 + 8);
  await page.selectOption('[data-testid=timing]', 'reference');
  await page.waitForFunction(() => document.querySelector('[data-testid=timing-gap]'));
  h = await hooks();
  assert.equal(h.render, 'aggregated');
  assert.ok(Number(h.drawCalls) > 1 + 8 + 8, `hatched stretches of waits drawn (${h.drawCalls} calls)`);
  // Sweep rank 1's row until a column with waits is under the pointer.
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  const y = box.y + Number(h.axis) + Number(h.rowHeight) * 1.5;
  const tooltip = page.locator('#panel-timeline .timeline-tooltip');
  let found = null;
  for (let x = Number(h.px0) + 1; x < Number(h.px1) && !found; x += 3) {
    await page.mouse.move(box.x + x, y);
    const lines = await tooltip.evaluate((t) => (t.hidden ? [] : [...t.children].map((c) => c.textContent)));
    found = lines.find((l) => l.startsWith('Waits in this pixel column')) ? lines : null;
  }
  assert.ok(found, 'a column with waits on rank 1');
  const title = found.find((l) => l.startsWith('Waits in this pixel column'));
  const m = /^Waits in this pixel column \(([\d.]+)–([\d.]+), rank 1\): ([\d.]+)$/.exec(title);
  assert.ok(m, title);
  assert.ok(Number(m[1]) < Number(m[2]) && Number(m[3]) > 0);
  const mostly = found[found.indexOf(title) + 1];
  const reason = /^mostly ([\d.]+) on (receives the ops consume|receives the ops do not use|sends that had not completed)$/.exec(mostly);
  assert.ok(reason, mostly);
  assert.ok(Number(reason[1]) <= Number(m[3]) + 1e-9, 'the dominant layer is part of the total');
  assert.ok(Number(m[3]) <= Number(m[2]) - Number(m[1]) + 1e-3, 'no more waiting than the column lasts');
  assert.deepEqual(problems, []);
  await page.close();
});

test('<pipesim-timeline timing="reference"> draws the reference runtime, sends chooses its semantics, a bad value is the engine\'s message', async () => {
  const { page, problems } = await browser.page('examples/element.html', { ready: null });
  await page.locator('#fig5 [data-testid=makespan]').waitFor();
  const makespanIs = (expected) =>
    page.waitForFunction((expected) => document.querySelector('#fig5').shadowRoot.querySelector('[data-testid=makespan]')?.textContent === expected, expected);
  const errorMatches = (pattern) =>
    page.waitForFunction((source) => new RegExp(source).test(document.querySelector('#fig5').shadowRoot.querySelector('[data-testid=error]')?.textContent ?? ''), pattern.source);
  const set = (attrs) => page.evaluate((attrs) => {
    const e = document.querySelector('#fig5');
    for (const [k, v] of Object.entries(attrs)) (v === null ? e.removeAttribute(k) : e.setAttribute(k, v));
  }, attrs);
  const errors = [];
  await page.exposeFunction('recordError', (detail) => errors.push(detail));
  await page.evaluate(() => document.querySelector('#fig5').addEventListener('pipesim-error', (e) => window.recordError(e.detail)));
  await set({ ranks: '4', 'micro-batches': '8', cost: 'F=2,B=2,W=1.5,FB=2.48,comm=0.5' });
  await makespanIs('33.92');
  await set({ timing: 'reference' });
  await makespanIs('37.44');
  assert.equal(await page.evaluate(() => document.querySelector('#fig5').timing), 'reference');
  assert.match(await page.locator('#fig5 [data-testid=timing]').textContent(), /reference runtime/);
  assert.equal(await page.evaluate(() => document.querySelector('#fig5').summary.timing), 'reference');
  await page.evaluate(() => (document.querySelector('#fig5').sends = 'eager'));
  await makespanIs('36.94');
  await set({ sends: 'async' });
  await makespanIs('36.42');
  // Bad values: the engine's one-line message in place of the drawing, nothing drawn beside it.
  await set({ sends: 'sometimes' });
  await errorMatches(/sends must be rendezvous, eager or async \(got 'sometimes'\)/);
  assert.equal(await page.locator('#fig5 canvas').count(), 0);
  await set({ sends: null, timing: 'sometimes' });
  await errorMatches(/timing must be dataflow or reference \(got 'sometimes'\)/);
  await set({ timing: null, sends: 'eager' });
  await errorMatches(/sends applies only to timing: 'reference'/);
  assert.deepEqual(errors.map((e) => e.code), ['unknown_name', 'unknown_name', 'usage']);
  // Both removed: dataflow again, and the element works on.
  await set({ sends: null });
  await makespanIs('33.92');
  assert.equal(await page.locator('#fig5 [data-testid=timing]').count(), 0);
  assert.equal(await page.locator('#fig5 [data-testid=error]').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});
