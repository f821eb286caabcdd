// Inside a chunk, measured: "Load a profile" reads a PyTorch profiler trace in the background worker
// and draws the measured pair under the model's; a bad trace is explained and the drawing kept.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { addressMatching, ARTIFACTS, openBrowser } from './harness.mjs';

const fixture = fileURLToPath(new URL('../data/profiler/chunk_pair.json', import.meta.url));

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

test('a loaded profile is measured and drawn under the model, with its numbers', async () => {
  const { page, problems } = await browser.page('?view=chunk');
  await page.waitForSelector('#panel-chunk svg');
  await page.setInputFiles('[data-testid=chunk-profile-file]', fixture);
  await page.waitForSelector('[data-testid=chunk-measured-title]');
  assert.equal(await page.textContent('[data-testid=chunk-measured-title]'), 'Measured pair: span = 44 µs');
  assert.equal(await page.textContent('[data-testid=chunk-measured-span]'), '44 µs');
  assert.equal(await page.textContent('[data-testid=chunk-measured-busy]'), '42.75 µs');
  assert.match(await page.textContent('[data-testid=chunk-profile-status]'), /^Measured: chunk_pair\.json \(rank 3, 15 kernels, 1 not attributed/);
  assert.equal(await page.isVisible('[data-testid=chunk-profile-rule]'), true);
  // The model's inputs are the measured components: F = 35.25 µs, B = 30.5 µs.
  assert.equal(await page.textContent('[data-testid=chunk-f]'), '35.25 µs');
  assert.equal(await page.textContent('[data-testid=chunk-b]'), '30.5 µs');
  assert.equal(await page.locator('#panel-chunk g[data-measured-lane=comm] g[data-component]').count(), 6);
  assert.equal(await page.locator('#panel-chunk g[data-measured-lane=compute] g[data-component="?"]').count(), 1);
  await page.screenshot({ path: join(ARTIFACTS, 'page-chunk-profile.png'), fullPage: true });
  // Use these costs: the measured F, B, W and the measured span as F&B, scaled to F = 1.
  await page.click('[data-testid=chunk-use-costs]');
  await page.waitForSelector('#panel-timeline:not([hidden])');
  assert.equal((await addressMatching(page, /[?&]cost=/)).searchParams.get('cost'), 'F=1,B=0.865,W=0.163,FB=1.248');
  await page.click('[role=tab] >> text=Inside a chunk');
  await page.waitForSelector('[data-testid=chunk-measured-title]');
  // Back to the model: the measured lanes go.
  await page.click('[data-testid=chunk-profile-back]');
  assert.equal(await page.locator('[data-testid=chunk-measured-title]').count(), 0);
  assert.equal(await page.isVisible('[data-testid=chunk-profile-rule]'), false);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a truncated profile is refused in one line and the drawing stays', async () => {
  const { page } = await browser.page('?view=chunk');
  await page.waitForSelector('[data-testid=chunk-fb]');
  const fb = await page.textContent('[data-testid=chunk-fb]');
  const broken = join(tmpdir(), `pipesim_${process.pid}_truncated.json`);
  writeFileSync(broken, readFileSync(fixture, 'utf8').slice(0, 2000));
  await page.setInputFiles('[data-testid=chunk-profile-file]', broken);
  await page.waitForSelector('[data-testid=chunk-error]:not([hidden])');
  assert.match(await page.textContent('[data-testid=chunk-error]'), /the profiler trace is not valid JSON/);
  assert.equal(await page.textContent('[data-testid=chunk-fb]'), fb);
  assert.equal(await page.locator('[data-testid=chunk-measured-title]').count(), 0);
  // The module still works: a good profile loads after the refusal.
  await page.setInputFiles('[data-testid=chunk-profile-file]', fixture);
  await page.waitForSelector('[data-testid=chunk-measured-title]');
  await page.close();
});
