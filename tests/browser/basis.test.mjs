// Compare and Charts on the same model and the same GPUs by default, with a switch to the same stage
// costs; every view says which basis its numbers use (issue 14).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { addressMatching, ARTIFACTS, openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const makespan = (page, schedule) => page.textContent(`[data-testid=compare-makespan-${schedule}]`);

test('Compare defaults to the same model on the same GPUs: DualPipe 66, DualPipeV 67, 1F1B 81 at the default preset', async () => {
  const { page, problems } = await browser.page('?view=compare&compare=1f1b,dualpipev');
  assert.equal(await makespan(page, 'dualpipe'), '66');
  assert.equal(await makespan(page, 'dualpipev'), '67');
  assert.equal(await makespan(page, '1f1b'), '81');
  assert.equal(await page.getAttribute('[data-testid=compare-basis]', 'data-basis'), 'model');
  assert.match(await page.textContent('[data-testid=compare-basis]'), /Same model, same GPUs: one micro-batch through the whole model costs 8 × \(F=1,B=2,W=1,FB=3\)/);
  // DualPipeV cuts the model into 16 stages, each half of one of DualPipe's 8.
  const dualpipev = await page.textContent('[data-testid=compare-table] tr[data-schedule=dualpipev]');
  assert.match(dualpipev, /F=0\.5 B=1 W=0\.5 F&B=1\.5 \(16 stages\)/);
  // The Timeline and its readouts keep the costs on screen for the chosen schedule.
  assert.equal(await page.textContent('[data-testid=makespan]'), '66');
  await page.screenshot({ path: join(ARTIFACTS, 'basis-compare-model.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('the switch to the same stage costs gives the DualPipe README table basis, and lives in the URL', async () => {
  const { page, problems } = await browser.page('?view=compare&compare=1f1b,dualpipev');
  await page.check('[data-testid=basis-stage]');
  await page.waitForFunction(() => document.querySelector('[data-testid=compare-basis]')?.dataset.basis === 'stage');
  assert.equal(await makespan(page, 'dualpipe'), '66');
  assert.equal(await makespan(page, 'dualpipev'), '134');
  assert.equal(await makespan(page, '1f1b'), '81');
  assert.match(await page.textContent('[data-testid=compare-basis]'), /Same stage costs: every stage of every schedule costs F=1,B=2,W=1,FB=3/);
  await addressMatching(page, /basis=stage/);
  await page.close();

  const { page: shared } = await browser.page('?view=compare&compare=dualpipev&basis=stage');
  assert.equal(await makespan(shared, 'dualpipev'), '134');
  assert.equal(await shared.isChecked('[data-testid=basis-stage]'), true);
  await shared.close();
  assert.deepEqual(problems, []);
});

test('Charts say their basis and switch it the same way', async () => {
  const { page, problems } = await browser.page('?view=charts&compare=dualpipev');
  await page.waitForSelector('[data-testid=charts-basis]');
  assert.equal(await page.getAttribute('[data-testid=charts-basis]', 'data-basis'), 'model');
  await page.check('[data-testid=charts-basis] [data-testid=basis-stage]');
  await page.waitForFunction(() => document.querySelector('[data-testid=charts-basis]')?.dataset.basis === 'stage');
  await addressMatching(page, /basis=stage/);
  assert.deepEqual(problems, []);
  await page.close();
});
