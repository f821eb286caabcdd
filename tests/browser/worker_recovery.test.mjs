// The background worker (issue 18): a worker whose engine breaks inside WebAssembly is replaced by the
// page, which says so, and the next large run is drawn by the new one; a large download is written in
// the worker and its progress shown as it goes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { downloaded, openBrowser } from './harness.mjs';

const CLI = fileURLToPath(new URL('../../build/pipesim', import.meta.url));
const cli = (...args) => execFileSync(CLI, ['simulate', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const idle = (page) => page.waitForSelector('#app[data-state=ready]:not([data-busy])', { timeout: 120000 });
const lastUpdate = (page) => page.evaluate(() => performance.getEntriesByName('pipesim:update').at(-1).detail.where);

test('a worker whose engine aborts inside WebAssembly is replaced: the page says so and the next run is drawn', async () => {
  // ?test-engine=abort (honoured only under automation) makes the first worker's engine call std::abort
  // before its first task: the engine is broken for real, as after any failure inside WebAssembly.
  const { page, problems } = await browser.page('?schedule=zb-h1&ranks=256&micro-batches=256&test-engine=abort', { ready: null });
  await page.waitForSelector('[data-testid=engine-restarted]:not([hidden])', { timeout: 120000 });
  assert.equal(
    (await page.textContent('[data-testid=engine-restarted]')).trim(),
    'The engine in the background failed and was started again; the last task was not done.',
  );
  await idle(page);
  // The task the broken engine was given is said to have failed, in the engine's words, not left busy.
  assert.match(await page.textContent('[data-testid=error]'), /the engine stopped after a failure inside WebAssembly \(Aborted\(\)/);
  // The next large run goes to the new worker and is drawn, with the CLI's makespan.
  await page.fill('[data-testid=micro-batches]', '200');
  await page.waitForFunction(() => document.querySelector('[data-testid=error]')?.hidden !== false);
  await idle(page);
  assert.equal(await lastUpdate(page), 'worker');
  const { makespan } = JSON.parse(cli('--schedule', 'zb-h1', '--ranks', '256', '--micro-batches', '200', '--format', 'summary'));
  assert.equal(await page.textContent('[data-testid=makespan]'), String(makespan));
  assert.equal(await page.isHidden('[data-testid=error]'), true);
  // The only console errors are the aborted engine's own lines.
  assert.deepEqual(problems.filter((p) => !/Aborted\(\)/.test(p)), []);
  await page.close();
});

test('outside automation the test flag does nothing: a page opened with it runs as any other', async () => {
  const { page, problems } = await browser.page(null);
  // navigator.webdriver is false in a browser nobody drives: set so before the page's script runs.
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false }));
  await page.goto(`${browser.url}?schedule=zb-h1&ranks=256&micro-batches=256&test-engine=abort`);
  await idle(page);
  assert.equal(await lastUpdate(page), 'worker');
  assert.equal(await page.isHidden('[data-testid=engine-restarted]'), true);
  assert.equal(await page.isHidden('[data-testid=error]'), true);
  const { makespan } = JSON.parse(cli('--schedule', 'zb-h1', '--ranks', '256', '--micro-batches', '256', '--format', 'summary'));
  assert.equal(await page.textContent('[data-testid=makespan]'), String(makespan));
  assert.deepEqual(problems, []);
  await page.close();
});

test('a large download is written in the worker with its progress shown in percent, and is the CLI\'s file', async () => {
  // 1F1B 64 x 512: 65,536 ops, about 2 MB of CSV, some thirty 64 KiB blocks.
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=64&micro-batches=512', { ready: null });
  await idle(page);
  // Every text the status line shows, as it changes.
  await page.evaluate(() => {
    const status = document.querySelector('[data-testid=export-status]');
    window.statusTexts = [];
    new MutationObserver(() => !status.hidden && window.statusTexts.push(status.textContent)).observe(status, {
      childList: true,
      characterData: true,
      subtree: true,
      attributes: true,
    });
  });
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 120000 }), page.click('[data-testid=export-csv]')]);
  assert.equal(download.suggestedFilename(), 'pipesim-1f1b-64x512.csv');
  assert.equal((await downloaded(download)).toString('utf8'), cli('--schedule', '1f1b', '--ranks', '64', '--micro-batches', '512', '--format', 'csv'));
  assert.equal(await page.isHidden('[data-testid=export-status]'), true, 'the progress note goes away');
  const texts = await page.evaluate(() => window.statusTexts);
  assert.equal(texts[0], 'Writing the CSV download of 65,536 ops in the background…');
  const percents = texts
    .slice(1)
    .map((text) => /^Writing the CSV download of 65,536 ops in the background: (\d+)%…$/.exec(text))
    .map((m) => (assert.ok(m, 'every later text is a percentage'), Number(m[1])));
  assert.ok(percents.length >= 10, `a percentage per block or so, got ${percents.join(', ')}`);
  for (let k = 1; k < percents.length; k++) assert.ok(percents[k] > percents[k - 1], `rising: ${percents.join(', ')}`);
  assert.ok(percents.at(-1) <= 99 && percents.at(-1) >= 90, `short of 100% until done, near it at the end: ${percents.at(-1)}`);
  assert.deepEqual(problems, []);
  await page.close();
});
