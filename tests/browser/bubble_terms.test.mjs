// The bubble derived on the page: under the readouts, the chosen rank's idle time per phase against the
// closed form's terms (the engine's summary.per_rank[r].bubble_split), the rows that stop adding up
// marked, and the gaps a row accounts for marked on the timeline on hover, focus or tap.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const cells = (page, testid) => page.$eval(`[data-testid=${testid}]`, (tr) => [...tr.cells].map((c) => c.textContent));
const marked = (page) => page.$$eval('[data-testid=bubble-gap-overlay] .bubble-gap', (gaps) => gaps.map((g) => g.dataset.gap));

test('DualPipe (Fig. 5), rank 0: its six idle units are F + 5(F&B-B) in the steady state; hovering marks its four gaps', async () => {
  const { page, problems } = await browser.page('');
  assert.deepEqual(await cells(page, 'bubble-phase-steady'), [
    'steady (until the last forward)', 'F + (PP-3-2h)(F&B-B)', '1*1 = 1; 5*1 = 5', '6', '6', '✓',
  ]);
  assert.equal(await page.textContent('[data-testid=bubble-verdict]'), "The terms add up to this rank's bubble, phase by phase.");
  assert.deepEqual(await marked(page), [], 'nothing marked before a hover');
  await page.hover('[data-testid=bubble-phase-steady]');
  assert.deepEqual(await marked(page), ['20-23', '40-41', '46-47', '52-53']);
  // A middle rank: the README's two factors, 3F in the fill and 3(F&B-B) in the cool-down.
  await page.selectOption('[data-testid=bubble-rank]', '3');
  assert.deepEqual((await cells(page, 'bubble-phase-fill')).slice(1, 5), ['hF', '3*1 = 3', '3', '3']);
  assert.deepEqual((await cells(page, 'bubble-phase-cool-down')).slice(1, 5), ['h(F&B-B)', '3*1 = 3', '3', '3']);
  await page.focus('[data-testid=bubble-phase-cool-down]');
  assert.deepEqual(await marked(page), ['51-52', '56-57', '59-60'], 'focus shows what hover shows');
  assert.deepEqual(problems, []);
  await page.close();
});

test('with comm = 1, 1F1B at 2 x 2: the warm-up row is off by the two hops the closed form leaves out', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=2&micro-batches=2&cost=F=1,B=2,W=1,FB=3,comm=1');
  const warmUp = await cells(page, 'bubble-phase-warm-up');
  assert.deepEqual(warmUp.slice(1), ['(PP-1-r)B', '1*2 = 2', '2', '4', 'off by 2']);
  assert.equal((await cells(page, 'bubble-phase-cool-down'))[5], '✓');
  assert.match(await page.textContent('[data-testid=bubble-verdict]'), /stop adding up/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('interleaved 1F1B states every rank: rF, then (PP-1-r)(F+B) over warm-up to cool-down in one row, then rB', async () => {
  const { page, problems } = await browser.page('?schedule=interleaved-1f1b&ranks=4&micro-batches=8&virtual-stages=2&cost=F=1,B=2,W=1');
  // Rank 0: its 9 idle units fall 3 + 1 + 5 in warm-up, steady, cool-down; the closed form states only their sum.
  const span = await cells(page, 'bubble-phase-warm-up-to-cool-down');
  assert.deepEqual(span, ['warm-up to cool-down, summed', '(PP-1-r)(F+B)', '3*3 = 9', '9', '9', '✓']);
  assert.equal(await page.locator('[data-testid=bubble-phase-steady]').count(), 0, 'a phase inside the range has no row of its own');
  assert.match(await page.textContent('[data-testid=bubble-range-note]'), /states only their sum/);
  assert.equal(await page.textContent('[data-testid=bubble-verdict]'), "The terms add up to this rank's bubble, phase by phase.");
  await page.hover('[data-testid=bubble-phase-warm-up-to-cool-down]');
  assert.deepEqual(await marked(page), ['11-14', '19-20', '34-35', '37-38', '40-41', '43-44', '46-47'], 'the whole range\'s gaps');
  // A middle rank: all three terms; the last rank: fill and drain only.
  await page.selectOption('[data-testid=bubble-rank]', '1');
  assert.deepEqual((await cells(page, 'bubble-phase-fill')).slice(1, 6), ['rF', '1*1 = 1', '1', '1', '✓']);
  assert.deepEqual((await cells(page, 'bubble-phase-warm-up-to-cool-down')).slice(1, 6), ['(PP-1-r)(F+B)', '2*3 = 6', '6', '6', '✓']);
  assert.deepEqual((await cells(page, 'bubble-phase-drain')).slice(1, 6), ['rB', '1*2 = 2', '2', '2', '✓']);
  await page.selectOption('[data-testid=bubble-rank]', '3');
  assert.deepEqual((await cells(page, 'bubble-phase-fill')).slice(1, 6), ['rF', '3*1 = 3', '3', '3', '✓']);
  assert.deepEqual((await cells(page, 'bubble-phase-drain')).slice(1, 6), ['rB', '3*2 = 6', '6', '6', '✓']);
  assert.equal(await page.locator('[data-testid=bubble-range-note]').count(), 0, 'no range on the last rank, no note');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a rank with no exact split (interleaved 1F1B with fewer micro-batches than ranks) shows the simulated idle per phase alone, and says so', async () => {
  const { page, problems } = await browser.page('?schedule=interleaved-1f1b&ranks=4&micro-batches=2&virtual-stages=2&cost=F=1,B=2,W=1');
  assert.match(await page.textContent('[data-testid=bubble-verdict]'), /no exact split of this rank/);
  assert.ok((await page.locator('[data-testid=bubble-terms] tbody tr').count()) > 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('in pt-BR and zh-CN the range row is worded in the language', async () => {
  for (const [lang, label] of [
    ['pt-BR', 'fase de warm-up até fase de cool-down, somados'],
    ['zh-CN', '从预热到冷却合计'],
  ]) {
    const { page, problems } = await browser.page(`?lang=${lang}&schedule=interleaved-1f1b&ranks=4&micro-batches=8&virtual-stages=2&cost=F=1,B=2,W=1`);
    assert.equal((await cells(page, 'bubble-phase-warm-up-to-cool-down'))[0], label);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('ZB-H1, ZB-H2, ZB-V and Chimera show their terms on every rank, adding up under their conditions', async () => {
  for (const [query, phase, term] of [
    ['schedule=zb-h1&ranks=4&micro-batches=8&cost=F=2,B=3,W=1', 'cool-down', ['(PP-1-r)(F-W)', '3*1 = 3', '3', '3', '✓']],
    ['schedule=zb-h2&ranks=3&micro-batches=5&cost=F=1.5,B=4,W=1.25', 'warm-up', ['(PP-1-r)(B-W+2comm-F)', '2*1.25 = 2.5', '2.5', '2.5', '✓']],
    ['schedule=zb-v&ranks=4&micro-batches=8&cost=F=1,B=2,W=1', 'drain', ['(PP/2-1-r)F', '3*1 = 3', '3', '3', '✓']],
    ['schedule=chimera&ranks=4&micro-batches=4&cost=F=1,B=1,W=0.5', 'warm-up', ['(PP/2-1-h)F', '1*1 = 1', '1', '1', '✓']],
  ]) {
    const { page, problems } = await browser.page(`?${query}`);
    assert.deepEqual((await cells(page, `bubble-phase-${phase}`)).slice(1, 6), term, query);
    assert.equal(await page.textContent('[data-testid=bubble-verdict]'), "The terms add up to this rank's bubble, phase by phase.", query);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('touch: a tap on a row marks its gaps, as hover does', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=8', { width: 390, height: 844, hasTouch: true });
  // A tap lands where the screen shows the row: bring it into view first (a tap does not scroll).
  const row = page.locator('[data-testid=bubble-phase-cool-down]');
  await row.scrollIntoViewIfNeeded();
  const box = await row.boundingBox();
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
  assert.deepEqual(await marked(page), ['24-25', '27-28', '30-31']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('in pt-BR and zh-CN the derivation is worded in the language', async () => {
  for (const [lang, title, verdict] of [
    ['pt-BR', 'A bolha derivada, termo a termo', 'Os termos somam a bolha deste rank, fase por fase.'],
    ['zh-CN', '气泡推导：逐项对照', '各项逐阶段相加，正好等于该 rank 的气泡。'],
  ]) {
    const { page, problems } = await browser.page(`?lang=${lang}`);
    assert.equal(await page.textContent('[data-testid=bubble-terms] h3'), title);
    assert.equal(await page.textContent('[data-testid=bubble-verdict]'), verdict);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('in pt-BR and zh-CN the closed form\'s caveat is the engine\'s own translation, for every schedule', async () => {
  // One page per language, the schedule chosen in its control: a page load per schedule would check
  // nothing more (the readouts are drawn anew for each run).
  const [first, ...others] = ['dualpipe', '1f1b', 'zb-h2', 'interleaved-1f1b', 'zb-v', 'chimera'];
  for (const lang of ['pt-BR', 'zh-CN']) {
    const { page, problems } = await browser.page(`?lang=${lang}&schedule=${first}&ranks=8&micro-batches=16`);
    for (const schedule of [first, ...others]) {
      if (schedule !== first) {
        // The readouts are replaced when the new run is drawn: wait for the old caveat to leave (or for
        // a refusal, which keeps it, and fails below).
        const old = await page.$('[data-testid=formula-condition]');
        await page.selectOption('[data-testid=schedule]', schedule);
        await page.waitForFunction((node) => !node.isConnected || !document.querySelector('[data-testid=error]').hidden, old);
        assert.equal(await page.isHidden('[data-testid=error]'), true, `${lang} ${schedule}: accepted at 8 x 16`);
      }
      const shown = await page.textContent('[data-testid=formula-condition]');
      assert.ok(shown.length > 10, `${lang} ${schedule}: a caveat`);
      assert.doesNotMatch(shown, /\b(exact|when|every|the paper|span bubble)\b/, `${lang} ${schedule}: “${shown}” is English`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  }
});
