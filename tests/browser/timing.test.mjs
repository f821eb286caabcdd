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
