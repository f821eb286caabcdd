// Behaviour a user relies on across interactions: stale views after a refusal, a language switch that
// keeps the state, focus kept while typing and ticking, sliders in step with their fields, narrow
// screens, an iframe that shrinks as well as grows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { addressMatching, openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const text = (page, id) => page.textContent(`[data-testid=${id}]`);

test('after a refused value every tab shows the last accepted configuration, greyed out', async () => {
  const { page, problems } = await browser.page('?view=memory');
  await page.fill('[data-testid=ranks]', '4');
  await page.fill('[data-testid=micro-batches]', '8');
  await page.click('[data-testid=tab-timeline]');
  await page.fill('[data-testid=ranks]', '3');
  assert.match(await text(page, 'error'), /even number of ranks/);
  await page.click('[data-testid=tab-memory]');
  assert.equal(await page.locator('#panel-memory [data-testid^=memory-peak-]').count(), 4); // 4 ranks, not the 8 seen before
  assert.equal(await page.evaluate(() => document.getElementById('panels').classList.contains('is-stale')), true);
  await page.fill('[data-testid=ranks]', '4');
  assert.equal(await page.evaluate(() => document.getElementById('panels').classList.contains('is-stale')), false);
  assert.deepEqual(problems, []);
  await page.close();
});

test('switching language mid-session keeps the settings and translates every view', async () => {
  const { page } = await browser.page('?view=planner&ranks=4&micro-batches=8');
  await page.waitForSelector('[data-testid=planner-recommendation]');
  await Promise.all([page.waitForNavigation(), page.selectOption('#lang-select', 'pt-BR')]);
  await page.waitForSelector('#app[data-state=ready]');
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('lang'), 'pt-BR');
  assert.equal(url.searchParams.get('ranks'), '4');
  assert.equal(await page.textContent('#panel-planner h3'), 'Qual escalonamento para o meu cluster e o meu modelo?');
  assert.match(await page.textContent('[data-testid=planner-recommendation]'), /RECOMENDADO|Recomendado/i);
  // The choice is saved for the next visit; the next tests of this browser are visits in English.
  await page.evaluate(() => localStorage.clear());
  await page.close();
});

test('typing a number of several digits in an exercise field keeps the focus', async () => {
  const { page } = await browser.page('?view=exercises');
  await page.click('[data-testid=ex3-memory]');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('120');
  assert.equal(await page.inputValue('[data-testid=ex3-memory]'), '120');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'ex3-memory');
  await page.close();
});

test('ticking a schedule to compare keeps the focus on its box', async () => {
  const { page } = await browser.page('?view=compare');
  await page.focus('[data-testid=compare-gpipe]');
  await page.keyboard.press('Space');
  // The table is drawn again after the change: wait for its fourth row rather than read it at once.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=compare-table] tbody tr').length === 4);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'compare-gpipe');
  await page.close();
});

test('the F&B slider stays in step with its field when B changes', async () => {
  const { page } = await browser.page();
  await page.fill('[data-testid=cost-b]', '6');
  assert.equal(await page.inputValue('[data-testid=cost-fb]'), '3'); // typed values are taken as typed ...
  assert.match(await text(page, 'error'), /FB \(3\) must lie in \[max\(F,B\), F\+B\] = \[6, 7\]/);
  await page.locator('[data-testid=cost-b-range]').fill('6'); // ... a slider move brings F&B along
  assert.equal(await page.inputValue('[data-testid=cost-fb]'), '6');
  assert.equal(await page.inputValue('[data-testid=cost-fb-range]'), '6');
  assert.equal(await page.isHidden('[data-testid=error]'), true);
  await page.close();
});

test('a dragged slider rewrites the address a few times, not on every step, and it ends on the last value', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=8');
  await page.evaluate(() => {
    window.addressWrites = 0;
    window.lastAddressWriteAt = performance.now();
    const replace = history.replaceState.bind(history);
    history.replaceState = (...args) => {
      window.addressWrites += 1;
      window.lastAddressWriteAt = performance.now();
      return replace(...args);
    };
  });
  // 300 steps as fast as a drag sends them: Safari would throw past 100 writes in 30 s.
  const { steps, ms } = await page.evaluate(async () => {
    const range = document.querySelector('[data-testid=micro-batches-range]');
    const started = performance.now();
    let sent = 0;
    for (let round = 0; round < 3; round += 1)
      for (let v = 8; v < 108; v += 1) {
        range.value = String(v);
        range.dispatchEvent(new Event('input', { bubbles: true }));
        sent += 1;
        if (v % 10 === 0) await new Promise((done) => requestAnimationFrame(done));
      }
    return { steps: sent, ms: performance.now() - started };
  });
  assert.equal(steps, 300);
  assert.equal(await page.inputValue('[data-testid=micro-batches]'), '107'); // the page followed every step
  await addressMatching(page, /micro-batches=107(&|$)/);
  const writes = await page.evaluate(() => window.addressWrites);
  // At most one write per 250 ms of dragging, plus the first and the trailing one.
  assert.ok(writes >= 2 && writes <= Math.ceil(ms / 250) + 2, `${writes} address writes for 300 steps in ${Math.round(ms)} ms`);
  // A single change after a quiet spell shows in the address at once, within the same task. The
  // spell is observed on the page's clock (more than the writer's 250 ms since its last write), not
  // slept for: on a loaded machine a fixed pause may not give the page that long.
  await page.waitForFunction(() => performance.now() - window.lastAddressWriteAt > 300);
  const ranksInAddress = await page.evaluate(() => {
    const range = document.querySelector('[data-testid=ranks-range]');
    range.value = '6';
    range.dispatchEvent(new Event('input', { bubbles: true }));
    return new URL(location.href).searchParams.get('ranks');
  });
  assert.equal(ranksInAddress, '6');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a 320-pixel screen shows the whole timeline without sideways scrolling', async () => {
  const { page, problems } = await browser.page('', { width: 320, height: 640 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page is ${overflow}px wider than the screen`);
  const canvas = await page.locator('#panel-timeline canvas').boundingBox();
  assert.ok(canvas.x + canvas.width <= 320, 'canvas inside the screen');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the embedded page grows and shrinks its iframe with its content', async () => {
  const { page } = await browser.page('examples/iframe.html', { ready: null });
  const frame = page.frameLocator('#frame');
  await frame.locator('[data-testid=makespan]').waitFor();
  const height = () => page.evaluate(() => parseInt(getComputedStyle(document.getElementById('frame')).height, 10));
  await page.waitForFunction(() => parseInt(getComputedStyle(document.getElementById('frame')).height, 10) > 400);
  const first = await height();
  // The exercises (each asking for an answer before its solution) are taller than the timeline.
  await frame.locator('[data-testid=tab-exercises]').click();
  await page.waitForFunction((h) => parseInt(getComputedStyle(document.getElementById('frame')).height, 10) > h + 100, first);
  const tall = await height();
  await frame.locator('[data-testid=tab-timeline]').click();
  await page.waitForFunction((h) => parseInt(getComputedStyle(document.getElementById('frame')).height, 10) < h, tall);
  assert.ok((await height()) < tall);
  await page.close();
});
