// The guided lesson, end to end in each language: ?view=learn opens step 1 on its panel, every step
// sets the page's state and asks for a prediction before it shows the timeline and the engine's
// answer, the step is in the URL, and the predictions survive a reload.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, addressMatching, openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

/** What the engine answers at each step, from theory where it gives one (unit costs F=1, B=2, W=1,
 *  F&B=3): 1F1B's rank 0 idles (p-1)(F+B) = 9 at p = 4 whatever the micro-batches; ZB-H1's idles
 *  (p-1)(F+B-2W) = 3; DualPipe's largest bubble is (PP/2-1)(F&B+B-3W) = 3 x 2 = 6 and does not grow;
 *  DualPipeV holds the 8 stages on 4 GPUs, and idles the least (4.8% against DualPipe's 9.1%). */
const EXPECTED = ['9', 'It stays the same', '3', 'Ranks 0 and 7, one per end', '6', 'It stays the same', '4', 'DualPipeV'];
const verdictOf = (answer) => new RegExp(`^(The engine says|Your prediction was right:) ${answer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.$`);

/** Commits a prediction (0, or the first option) so that the verdict names the engine's answer. */
async function predict(page) {
  const options = page.locator('[data-testid=learn-option]');
  if ((await options.count()) > 0) await options.nth(0).check();
  else await page.fill('[data-testid=learn-number]', '0');
  await page.click('[data-testid=learn-commit]');
}

const STATE = { 1: ['1f1b', '4', '8'], 3: ['zb-h1', '4', '8'], 4: ['dualpipe', '8', '20'], 6: ['dualpipe', '8', '40'], 7: ['dualpipev', '4', '20'] };

test('?view=learn opens step 1; each step asks first, then reveals the engine answer; the URL names the step', async () => {
  const { page, problems } = await browser.page('?view=learn');
  await page.waitForSelector('[data-testid=learn-title]');
  assert.equal(await page.isVisible('[data-testid=learn]'), true);
  assert.equal(await page.textContent('[data-testid=learn-title]'), 'The pipeline bubble of 1F1B');
  assert.equal(await page.getAttribute('[data-testid=tab-learn]', 'aria-selected'), 'true');
  assert.equal(await page.isHidden('#readouts'), true, 'the readouts would give the answer away');
  // Nothing is revealed before a prediction, and an empty one is not taken.
  assert.equal(await page.locator('[data-testid=learn-reveal]').count(), 0);
  assert.equal(await page.locator('#panel-learn canvas').count(), 0, 'no timeline to count the gaps on');
  await page.click('[data-testid=learn-commit]');
  assert.match(await page.textContent('[data-testid=learn-note]'), /Give a prediction first/);
  assert.equal(await page.locator('[data-testid=learn-reveal]').count(), 0);
  for (let step = 1; step <= 8; step++) {
    await addressMatching(page, new RegExp(`step=${step}(&|$)`));
    assert.match(await page.textContent('.learn-count'), new RegExp(`^Step ${step} of 8$`));
    if (STATE[step]) {
      const [schedule, ranks, micro] = STATE[step];
      assert.equal(await page.inputValue('[data-testid=schedule]'), schedule, `step ${step} sets the schedule`);
      assert.equal(await page.inputValue('[data-testid=ranks]'), ranks);
      assert.equal(await page.inputValue('[data-testid=micro-batches]'), micro);
    }
    await predict(page);
    assert.match(await page.textContent('[data-testid=learn-verdict]'), verdictOf(EXPECTED[step - 1]), `step ${step}`);
    assert.equal(await page.locator('#panel-learn canvas').count(), 1, 'the timeline comes with the answer');
    if (step < 8) await page.click('[data-testid=learn-next]');
  }
  // The reveal explains with the engine's numbers.
  await page.click('[data-testid=learn-step-1]');
  assert.match(await page.textContent('[data-testid=learn-explain]'), /^Rank 0 idles 9 units out of a makespan of 33 \(busy 24\)/);
  await page.click('[data-testid=learn-step-5]');
  assert.match(await page.textContent('[data-testid=learn-explain]'), /\(8\/2-1\)\(3\+2-3\*1\) = 6/);
  await page.screenshot({ path: join(ARTIFACTS, 'learn-step5.png'), fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test('progress is kept: after a reload the answered steps are marked and their predictions shown', async () => {
  const { page, problems } = await browser.page('?view=learn&step=3');
  await page.waitForSelector('[data-testid=learn-title]');
  assert.equal(await page.textContent('[data-testid=learn-title]'), 'Zero Bubble splits the backward');
  assert.equal(await page.inputValue('[data-testid=schedule]'), 'zb-h1', 'a step URL sets the step’s settings');
  await page.fill('[data-testid=learn-number]', '3');
  await page.press('[data-testid=learn-number]', 'Enter');
  assert.equal(await page.textContent('[data-testid=learn-verdict]'), 'Your prediction was right: 3.');
  await page.reload();
  await page.waitForSelector('[data-testid=learn-verdict]');
  assert.equal(await page.inputValue('[data-testid=learn-number]'), '3');
  assert.equal(await page.textContent('[data-testid=learn-step-3]'), '✓ 3');
  assert.equal(await page.textContent('[data-testid=learn-step-2]'), '2');
  // Skipping leaves the lesson for the timeline.
  await page.click('[data-testid=learn-skip]');
  assert.equal(await page.isVisible('#panel-timeline'), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a newcomer is offered the lesson first, and a dismissed offer does not come back', async () => {
  const { page, problems } = await browser.page('');
  await page.waitForSelector('[data-testid=learn-offer]');
  await page.click('[data-testid=learn-offer-start]');
  assert.equal(await page.textContent('[data-testid=learn-title]'), 'The pipeline bubble of 1F1B');
  await page.goto(browser.url);
  await page.waitForSelector('#app[data-state=ready]');
  assert.equal(await page.locator('[data-testid=learn-offer]').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

for (const [lang, title, verdict] of [
  ['pt-BR', 'A bolha do pipeline no 1F1B', /^O motor diz 9\.$/],
  ['zh-CN', '1F1B 的流水线气泡', /^引擎的结果是 9。$/],
]) {
  test(`the lesson in ${lang}, every step through to the end`, async () => {
    const { page, problems } = await browser.page(`?view=learn&lang=${lang}`);
    await page.waitForSelector('[data-testid=learn-title]');
    assert.equal(await page.textContent('[data-testid=learn-title]'), title);
    for (let step = 1; step <= 8; step++) {
      await predict(page);
      const text = await page.textContent('[data-testid=learn]');
      if (step === 1) assert.match(await page.textContent('[data-testid=learn-verdict]'), verdict);
      // No English sentence of the lesson is left: its English words do not appear.
      for (const word of ['prediction', 'engine says', 'idles', 'Step ', 'time units', 'Next step'])
        assert.ok(!text.includes(word), `step ${step} in ${lang} shows English "${word}"`);
      if (step < 8) await page.click('[data-testid=learn-next]');
    }
    await page.screenshot({ path: join(ARTIFACTS, `learn-${lang}.png`), fullPage: true });
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('a lesson opened from its URL compares its schedule with the others, never with itself', async () => {
  // Step 1 is 1F1B, which the first preset also compares against: opened at ?view=learn, the step's
  // schedule leaves the compared list, as any change of schedule does, so Compare lists it once.
  const { page, problems } = await browser.page('?view=learn');
  await page.click('[data-testid=tab-compare]');
  await page.waitForSelector('[data-testid^=compare-makespan-]');
  const rows = await page.$$eval('[data-testid^=compare-makespan-]', (cells) => cells.map((c) => c.dataset.testid));
  assert.deepEqual(rows, [...new Set(rows)], 'a schedule listed twice');
  assert.ok(rows.includes('compare-makespan-1f1b'), `1F1B is the step's schedule: ${rows}`);
  assert.equal(new URL(page.url()).searchParams.get('compare')?.split(',').includes('1f1b') ?? false, false);
  assert.deepEqual(problems, []);
});
