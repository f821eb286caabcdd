// Inside a chunk: the animated two-lane view of one F&B pair (DeepSeek-V3 Fig. 4).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { addressMatching, ARTIFACTS, openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const widthOf = (page, label) =>
  page.locator(`#panel-chunk g[data-component="${label}"] rect:nth-child(2)`).first().evaluate((r) => Number(r.getAttribute('width')));

test('the animation plays, and the scrubber moves it', async () => {
  const { page, problems } = await browser.page('?view=chunk');
  await page.waitForSelector('#panel-chunk svg');
  // At rest the whole pair is drawn; scrubbing to the start empties every component.
  assert.ok((await widthOf(page, 'MLP(F)')) > 0);
  await page.locator('[data-testid=chunk-scrub]').fill('0');
  assert.equal(await page.textContent('[data-testid=chunk-time]'), 't = 0 µs');
  assert.equal(await widthOf(page, 'ATTN(F)'), 0);
  // Half way: attention done, the last components not started.
  await page.locator('[data-testid=chunk-scrub]').fill('500');
  assert.ok((await widthOf(page, 'ATTN(F)')) > 0);
  assert.equal(await widthOf(page, 'ATTN(W)'), 0);
  // Play from the start: time advances on its own.
  await page.locator('[data-testid=chunk-scrub]').fill('0');
  await page.click('[data-testid=chunk-play]');
  assert.equal(await page.textContent('[data-testid=chunk-play]'), 'Pause');
  await page.waitForFunction(() => document.querySelector('[data-testid=chunk-scrub]').value > 100);
  await page.click('[data-testid=chunk-play]');
  assert.equal(await page.textContent('[data-testid=chunk-play]'), 'Play');
  await page.screenshot({ path: join(ARTIFACTS, 'page-chunk.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('changing the compute:communication ratio changes the hidden fraction', async () => {
  const { page } = await browser.page('?view=chunk');
  await page.waitForSelector('[data-testid=hidden-fraction]');
  assert.equal(await page.textContent('[data-testid=chunk-ratio-value]'), '1 : 1');
  const atOneToOne = await page.textContent('[data-testid=hidden-fraction]');
  assert.match(await page.textContent('[data-testid=overlap-sentence]'), /the computation waits/);
  await page.locator('[data-testid=chunk-ratio]').fill('1'); // 2 : 1, more compute per byte
  assert.equal(await page.textContent('[data-testid=chunk-ratio-value]'), '2 : 1');
  assert.equal(await page.textContent('[data-testid=hidden-fraction]'), '100.0%');
  assert.notEqual(atOneToOne, '100.0%');
  assert.match(await page.textContent('[data-testid=overlap-sentence]'), /^Communication 100% hidden/);
  await page.locator('[data-testid=chunk-ratio]').fill('-1'); // 1 : 2
  assert.ok(parseFloat(await page.textContent('[data-testid=hidden-fraction]')) < parseFloat(atOneToOne));
  assert.ok((await page.locator('#panel-chunk [data-exposed]').count()) > 0, 'exposed communication is hatched');
  await page.close();
});

test('fewer communication SMs slow the all-to-alls; a bad value is explained', async () => {
  const { page } = await browser.page('?view=chunk');
  await page.waitForSelector('[data-testid=chunk-fb]');
  const fb20 = parseFloat(await page.textContent('[data-testid=chunk-fb]'));
  await page.fill('[data-testid=chunk-comm-sms]', '5');
  const fb5 = parseFloat(await page.textContent('[data-testid=chunk-fb]'));
  assert.ok(fb5 > fb20, `${fb5} should exceed ${fb20}`);
  await page.fill('[data-testid=chunk-comm-sms]', '200');
  assert.match(await page.textContent('[data-testid=chunk-error]'), /comm/i);
  await page.fill('[data-testid=chunk-comm-sms]', '20');
  assert.equal(await page.isHidden('[data-testid=chunk-error]'), true);
  await page.close();
});

test('the chunk model can give the pipeline its costs', async () => {
  const { page } = await browser.page('?view=chunk');
  await page.waitForSelector('[data-testid=chunk-use-costs]');
  await page.click('[data-testid=chunk-use-costs]');
  await page.waitForSelector('#panel-timeline:not([hidden])');
  const cost = (await addressMatching(page, /[?&]cost=/)).searchParams.get('cost');
  assert.match(cost, /^F=1,B=[\d.]+,W=[\d.]+,FB=[\d.]+$/);
  assert.equal(await page.isHidden('[data-testid=error]'), true);
  await page.close();
});
