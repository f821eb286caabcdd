// A measured pipeline on the page: one profiler trace per rank loaded under the Timeline, measured in
// the background worker, drawn per rank as the model (fitted costs) above the measured run.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS, openBrowser } from './harness.mjs';

const dir = fileURLToPath(new URL('../data/profiler/pipeline_4rank/', import.meta.url));
const traces = ['trace_a.json', 'trace_b.json', 'trace_c.json', 'trace_d.json'].map((f) => join(dir, f));

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

test('four traces are measured and drawn under the model, with each rank\'s numbers', async () => {
  const { page, problems } = await browser.page('');
  await page.click('[data-testid=measured-pipeline] summary');
  await page.setInputFiles('[data-testid=measured-files]', traces);
  await page.waitForSelector('[data-testid=measured-sentence]:not(:empty)');
  assert.equal(await page.textContent('[data-testid=measured-sentence]'),
    'Your schedule with your measured costs would take 2100 µs; you measured 2137.5 µs.');
  assert.match(await page.textContent('[data-testid=measured-costs]'), /F = 100, B = 200, W = 0, F&B = 300/);
  for (const row of ['model', 'measured'])
    assert.equal(await page.locator(`[data-testid=measured-pipeline] g[data-row=${row}] [data-kind]`).count(), 32, row);
  // Rank 1's busy time holds its one slow backward (260 µs instead of 200).
  assert.deepEqual(await page.locator('[data-testid=measured-pipeline] tbody tr:nth-child(2) td').allTextContents(),
    ['1', '1260', '877.5', '1200', '900', '2, the latest by 37.5 µs']);
  await page.locator('[data-testid=measured-pipeline]').screenshot({ path: join(ARTIFACTS, 'page-measured-pipeline.png') });
  assert.deepEqual(problems, []);
  await page.close();
});

test('a trace that is not a profiler trace is refused, naming which', async () => {
  const { page } = await browser.page('');
  await page.click('[data-testid=measured-pipeline] summary');
  await page.setInputFiles('[data-testid=measured-files]', [traces[0], fileURLToPath(new URL('../../package.json', import.meta.url))]);
  await page.waitForSelector('[data-testid=measured-error]:not([hidden])');
  assert.match(await page.textContent('[data-testid=measured-error]'), /trace 2: not a profiler trace: no traceEvents/);
  await page.close();
});
