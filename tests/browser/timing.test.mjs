// The Timing switch: the reference runtime's timing next to the dataflow ideal, its gap readout and
// the address that shares it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const text = (page, id) => page.textContent(`[data-testid=${id}]`);

test('the Timing switch times DualPipe as dualpipe.py communicates, shows the gap and keeps it in the address', async () => {
  const { page, problems } = await browser.page('?schedule=dualpipe&ranks=4&micro-batches=8&cost=F=1,B=2,W=1.5,FB=2.5');
  assert.equal(await text(page, 'makespan'), '24');
  assert.equal(await page.isVisible('[data-testid=sends]'), false);
  await page.selectOption('[data-testid=timing]', 'reference');
  await page.waitForFunction(() => document.querySelector('[data-testid=makespan]')?.textContent === '25.5');
  assert.equal(await text(page, 'timing-gap'), '1.5');
  assert.equal(await text(page, 'timing-gap-line'),
    'The reference program loses 1.5 to waits the dataflow avoids: 3 on receives it does not use, 2 on sends (summed over ranks).');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('timing') === 'reference');
  await page.selectOption('[data-testid=sends]', 'eager');
  await page.waitForFunction(() => document.querySelector('[data-testid=makespan]')?.textContent === '24.5');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('sends') === 'eager');
  await page.selectOption('[data-testid=timing]', 'dataflow');
  await page.waitForFunction(() => document.querySelector('[data-testid=makespan]')?.textContent === '24');
  assert.equal(await page.locator('[data-testid=timing-gap]').count(), 0);
  await page.waitForFunction(() => !new URL(location.href).searchParams.has('timing'));
  assert.deepEqual(problems, []);
  await page.close();
});

test('in reference timing the table of ops gives each op its wait in three layers, which sum to the gap readout', async () => {
  const { page, problems } = await browser.page('?schedule=dualpipe&ranks=4&micro-batches=8&cost=F=1,B=2,W=1.5,FB=2.5');
  await page.click('[data-testid=table-toggle]');
  const header = () => page.$$eval('[data-testid=ops-table] thead th', (ths) => ths.map((th) => th.textContent));
  assert.deepEqual(await header(), ['Rank', '#', 'Op', 'Stage', 'Start', 'End'], 'dataflow: no waits to show');
  await page.selectOption('[data-testid=timing]', 'reference');
  await page.waitForFunction(() => document.querySelector('[data-testid=makespan]')?.textContent === '25.5');
  assert.deepEqual(await header(), ['Rank', '#', 'Op', 'Stage', 'Start', 'End', 'Wait: its receives', 'Wait: receives it does not use', 'Wait: sends']);
  const rows = await page.$$eval('[data-testid=ops-table] tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => Number(td.textContent))));
  const sum = (column) => rows.reduce((total, row) => total + row[column], 0);
  // As the gap line says: 3 on receives it does not use, 2 on sends (summed over ranks).
  assert.equal(sum(7), 3);
  assert.equal(sum(8), 2);
  // An op with no wait before it shows zeros; the first op of every rank waits for nothing but its input.
  for (const row of rows.filter((r) => r[1] === 0)) assert.deepEqual(row.slice(7), [0, 0]);
  assert.deepEqual(problems, []);
  await page.close();
});
