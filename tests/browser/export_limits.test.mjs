// Downloads of runs too large to hand over as one file (issue 18): the page says why, in the engine's
// words, and the background worker keeps running large runs afterwards. Before the fix, an SVG of
// ZB-H1 2048 x 768 broke the worker's engine: no download, no message, and every later large run
// stayed "busy" until the page was reloaded.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const idle = (page) => page.waitForSelector('#app[data-state=ready]:not([data-busy])');

test('an export over the budget gives a message, and the worker then runs a large run as before', async () => {
  const { page, problems } = await browser.page('?schedule=zb-h1&ranks=2048&micro-batches=768', { ready: null });
  await idle(page);
  for (const [format, least] of [['svg', '405.0 MiB'], ['json', '450.0 MiB'], ['chrome-trace', '675.0 MiB']]) {
    await page.click(`[data-testid=export-${format}]`);
    await page.waitForSelector('[data-testid=export-error]:not([hidden])');
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
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=export-actions]')]);
  assert.equal(download.suggestedFilename(), 'pipesim-zb-h1-2048x512.txt');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a file over the size of a custom schedule is refused by its size before it is read; a BOM-marked JSON imports', async () => {
  const { page, problems } = await browser.page('?schedule=custom');
  // A sparse file of 64 MiB + 1 byte (playwright hands over at most 50 MB as a buffer).
  const big = join(tmpdir(), `pipesim-big-${process.pid}.json`);
  await writeFile(big, '');
  await truncate(big, 64 * 2 ** 20 + 1);
  await page.setInputFiles('[data-testid=custom-file]', big);
  await page.waitForSelector('[data-testid=custom-file-error]:not([hidden])');
  assert.equal(
    (await page.textContent('[data-testid=custom-file-error]')).trim(),
    'Not accepted: the file has 67,108,865 bytes; a custom schedule may be at most 67,108,864 bytes.',
  );
  // A JSON schedule saved with a byte-order mark reads as JSON, as without one.
  const schedule = JSON.stringify({ micro_batches: 1, per_rank: [{ ops: [{ op: 'F', mb: 0, stage: 0 }, { op: 'B', mb: 0, stage: 0 }] }] });
  await page.setInputFiles('[data-testid=custom-file]', { name: 'bom.json', mimeType: 'application/json', buffer: Buffer.from('\uFEFF' + schedule) });
  await page.waitForFunction(() => document.querySelector('[data-testid=makespan]')?.textContent === '3');
  assert.equal(await page.isHidden('[data-testid=custom-file-error]'), true);
  assert.equal(await page.isHidden('[data-testid=error]'), true);
  assert.deepEqual(problems, []);
  await rm(big);
  await page.close();
});

test('the offline file runs when served with the policy it states for itself, and that policy allows no other code', async () => {
  const { page, problems } = await browser.page(null);
  const missing = [];
  page.on('response', (r) => r.status() === 404 && missing.push(new URL(r.url()).pathname));
  await page.goto(`${browser.url}pipesim-offline.html`);
  await page.waitForSelector('#app[data-state=ready]');
  assert.match(await page.textContent('[data-testid=makespan]'), /^66$/);
  const policy = await page.evaluate(async () => (await fetch(location.href)).headers.get('content-security-policy'));
  assert.match(policy, /^default-src 'self'; script-src 'sha256-[A-Za-z0-9+/=]{44}'( 'sha256-[A-Za-z0-9+/=]{44}')* 'wasm-unsafe-eval'; style-src 'sha256-/);
  assert.ok(!policy.includes('unsafe-inline'));
  // The file asks for no icon; the browser's own request for one is the only thing ever not found.
  assert.ok(missing.every((path) => path === '/favicon.ico'), missing.join(', '));
  assert.deepEqual(problems.filter((p) => !p.includes('404')), [], 'no CSP violation, no error');
  await page.close();
});
