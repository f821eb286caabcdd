// The rest of the schedule family on the page: every schedule selectable and comparable, custom
// schedules pasted in, and the deadlock of a bad one explained.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const text = (page, id) => page.textContent(`[data-testid=${id}]`);

test('every schedule of the engine is on the page and in compare mode', async () => {
  const { page } = await browser.page('?view=compare&basis=stage&ranks=4&micro-batches=8&cost=F=1,B=2,W=1');
  const options = await page.$$eval('[data-testid=schedule] option', (os) => os.map((o) => o.value));
  for (const name of ['gpipe', '1f1b', 'interleaved-1f1b', 'zb-h1', 'zb-h2', 'zb-v', 'dualpipe', 'dualpipev', 'chimera', 'custom'])
    assert.ok(options.includes(name), `${name} in the schedule list`);
  for (const name of ['interleaved-1f1b', 'zb-v', 'chimera', 'zb-h2']) await page.check(`[data-testid=compare-${name}]`);
  await page.waitForSelector('[data-testid=compare-table] tbody tr[data-schedule="zb-h2"]');
  const rows = await page.$$eval('[data-testid=compare-table] tbody tr', (trs) => trs.map((tr) => [tr.dataset.schedule, tr.children[1].textContent]));
  const byName = Object.fromEntries(rows);
  assert.equal(byName['interleaved-1f1b'], '57');
  assert.equal(byName['zb-v'], '51 (span 48)');
  assert.equal(byName['zb-h2'], '27 (span 24)');
  assert.ok(byName.chimera, 'chimera compared');
  await page.close();
});

test('interleaved 1F1B takes virtual stages from the page', async () => {
  const { page } = await browser.page('?schedule=interleaved-1f1b&ranks=4&micro-batches=8&virtual-stages=2&cost=F=1,B=2,W=1');
  assert.equal(await text(page, 'makespan'), '57');
  assert.equal(await text(page, 'peak-activations'), '11');
  assert.equal(await page.isVisible('[data-testid=virtual-stages]'), true);
  await page.fill('[data-testid=virtual-stages]', '4');
  assert.equal(await text(page, 'makespan'), '105');
  await page.close();
});

test('ZB-V says its published zero bubble is measured over the span', async () => {
  const { page } = await browser.page('?schedule=zb-v&ranks=4&micro-batches=8&cost=F=1,B=2,W=1');
  assert.equal(await text(page, 'makespan'), '51');
  assert.match(await page.textContent('.readout:has([data-testid=makespan]) .meta'), /span 48/);
  assert.match(await page.textContent('.readout:has([data-testid=bubble-fraction]) .meta'), /use the span/);
  await page.close();
});

test('a pasted custom schedule is simulated, and a deadlocking one is refused with its cycle', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=2&micro-batches=2&cost=F=1,B=2,W=1');
  await page.selectOption('[data-testid=schedule]', 'custom');
  // It starts as the schedule on screen, in PyTorch's action notation.
  assert.equal(await page.inputValue('[data-testid=custom-schedule]'), '0F0,0F1,0B0,0B1\n1F0,1B0,1F1,1B1\n');
  assert.equal(await text(page, 'makespan'), '9'); // (m + p - 1)(F + B)
  // Rank 0 defers both weight gradients: I0 at 4..5, I1 at 7..8 (after rank 1's B1), W0 8..9, W1 9..10.
  await page.fill('[data-testid=custom-schedule]', '0F0 0F1 0I0 0I1 0W0 0W1\n1F0 1B0 1F1 1B1');
  assert.equal(await page.isHidden('[data-testid=error]'), true);
  assert.equal(await text(page, 'makespan'), '10');
  await page.fill('[data-testid=custom-schedule]', '0F0,0B0,0F1,0B1\n1F1,1B1,1F0,1B0');
  const error = await text(page, 'error');
  assert.match(error, /deadlock: rank 0 waits at op 1 \(B0\) for B0 \(rank 1, op 3\); rank 1 waits at op 0 \(F1\) for F1 \(rank 0, op 2\)/);
  await page.fill('[data-testid=custom-schedule]', '0F0,0X1');
  assert.match(await text(page, 'error'), /0X1/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the charts put every schedule that accepts the sizes on a bubble-against-memory plot', async () => {
  const { page, problems } = await browser.page('?view=charts&schedule=dualpipe&ranks=8&micro-batches=16&cost=F=1,B=2,W=1,FB=3');
  await page.waitForSelector('#panel-charts [data-point]');
  const points = await page.$$eval('#panel-charts [data-point]', (gs) => Object.fromEntries(gs.map((g) => [g.dataset.point, g.querySelector('title').textContent])));
  // 8 ranks x 16 micro-batches: DualPipe holds 9 of 8 stages at peak (1.13), bubble 6 / 54 (11%);
  // 1F1B holds 8 of 8 (1), bubble 21 / 69 (30%). Chimera accepts 16 (a multiple of 8).
  assert.equal(points.DualPipe, 'DualPipe: 1.13, 11%');
  assert.equal(points['1F1B'], '1F1B: 1, 30%');
  for (const name of ['GPipe', 'ZB-H1', 'ZB-H2', 'ZB-V', 'DualPipeV', 'Interleaved 1F1B', 'Chimera (direct concatenation)'])
    assert.ok(points[name], `${name} plotted`);
  assert.deepEqual(problems, []);
  await page.close();
});
