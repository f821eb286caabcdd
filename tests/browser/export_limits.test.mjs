// Downloads of runs too large to hand over as one file (issue 18): the page says why, in the engine's
// words, and the background worker keeps running large runs afterwards. Before the fix, an SVG of
// ZB-H1 2048 x 768 broke the worker's engine: no download, no message, and every later large run
// stayed "busy" until the page was reloaded.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const idle = (page) => page.waitForSelector('#app[data-state=ready]:not([data-busy])', { timeout: 120000 });

test('an export over the budget gives a message, and the worker then runs a large run as before', async () => {
  const { page, problems } = await browser.page('?schedule=zb-h1&ranks=2048&micro-batches=768', { ready: null });
  await idle(page);
  for (const [format, least] of [['svg', '405.0 MiB'], ['json', '450.0 MiB'], ['chrome-trace', '675.0 MiB']]) {
    await page.click(`[data-testid=export-${format}]`);
    await page.waitForSelector('[data-testid=export-error]:not([hidden])', { timeout: 120000 });
    assert.equal(
      (await page.textContent('[data-testid=export-error]')).trim(),
      `Not accepted: the ${format} export of this run would take at least ${least}, over the 256.0 MiB one export may ` +
        `take in memory here; export a smaller run, or use the CLI, which streams it (pipesim simulate --format ${format})`,
    );
    assert.equal(await page.isHidden('[data-testid=export-status]'), true, 'the progress note goes away');
  }
  assert.equal(await page.isHidden('[data-testid=engine-restarted]'), true, 'a refusal breaks nothing: no restart');
  // A large run afterwards still goes to the worker and is drawn.
  await page.fill('[data-testid=micro-batches]', '512');
  await idle(page);
  const where = await page.evaluate(() => performance.getEntriesByName('pipesim:update').at(-1).detail.where);
  assert.equal(where, 'worker');
  assert.match(await page.textContent('[data-testid=makespan]'), /^\d[\d,]*$/);
  // And a download of a size the budget allows is written in the worker.
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120000 }), page.click('[data-testid=export-actions]')]);
  assert.equal(download.suggestedFilename(), 'pipesim-zb-h1-2048x512.txt');
  assert.deepEqual(problems, []);
  await page.close();
});
