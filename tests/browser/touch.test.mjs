// The timeline on a touch screen (390 px, a phone): a tap is the touch screen's hover, so it shows the
// tooltip a mouse would; two fingers moving apart zoom in around their midpoint, and together zoom out.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cellCentre, openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const PHONE = { width: 390, height: 844, hasTouch: true };
const canvas = '#panel-timeline canvas';

/** The time window the canvas shows, from its published layout. */
const shown = (page) => page.locator(canvas).evaluate((c) => [Number(c.dataset.t0), Number(c.dataset.t1)]);

/** Two fingers at y, from x = mid ± from to mid ± to in `steps` moves, as Chromium's touch input. */
async function pinch(page, { mid, y, from, to, steps = 6 }) {
  const cdp = await page.context().newCDPSession(page);
  const fingers = (spread) => [
    { x: mid - spread, y, id: 0 },
    { x: mid + spread, y, id: 1 },
  ];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(from) });
  for (let k = 1; k <= steps; k++)
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(from + ((to - from) * k) / steps) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** Resolves after `n` animation frames: what the page does after a gesture has been done by then. */
const frames = (page, n) =>
  page.evaluate((count) => new Promise((done) => {
    let seen = 0;
    const next = () => (++seen >= count ? done() : requestAnimationFrame(next));
    requestAnimationFrame(next);
  }), n);

test('a tap on a timeline cell shows its op in the tooltip, and the tooltip stays after the finger lifts', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=8', PHONE);
  await page.locator(canvas).scrollIntoViewIfNeeded();
  // 1F1B's rank 0 starts with F0 at t = 0..1.
  const first = await cellCentre(page, canvas, { rank: 0, start: 0, end: 1 });
  await page.touchscreen.tap(first.x, first.y);
  const tooltip = page.locator('#panel-timeline .timeline-tooltip');
  await tooltip.waitFor({ state: 'visible' });
  await frames(page, 5);
  assert.equal(await tooltip.isVisible(), true, 'the tooltip is still shown once the tap is over');
  const tip = await tooltip.textContent();
  assert.match(tip, /Forward \(F\)/);
  assert.match(tip, /micro-batch 0/);
  assert.match(tip, /t = 0 → 1/);
  // A tap on another cell moves the tooltip to that op: rank 0's F1 at t = 1..2.
  const second = await cellCentre(page, canvas, { rank: 0, start: 1, end: 2 });
  await page.touchscreen.tap(second.x, second.y);
  await page.waitForFunction(() => /micro-batch 1/.test(document.querySelector('#panel-timeline .timeline-tooltip').textContent));
  assert.deepEqual(problems, []);
  await page.close();
});

test('two fingers moving apart zoom the timeline in around their midpoint; moving together zoom back out', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=8', PHONE);
  await page.locator(canvas).scrollIntoViewIfNeeded();
  const [t0, t1] = await shown(page);
  assert.deepEqual([t0, t1], [0, 33], 'the whole run at first');
  const box = await page.locator(canvas).boundingBox();
  const middle = await cellCentre(page, canvas, { rank: 1, start: 16, end: 16 });
  await pinch(page, { mid: middle.x, y: middle.y, from: 20, to: 80 });
  await page.waitForFunction((s) => Number(document.querySelector(s).dataset.t1) - Number(document.querySelector(s).dataset.t0) < 33, canvas);
  const [z0, z1] = await shown(page);
  // Fingers 40 px apart moved to 160 px: about 4x closer, the time under the midpoint kept in view.
  assert.ok(z1 - z0 < 33 / 2, `zoomed in to ${z0}..${z1}`);
  assert.ok(z0 < 16 && z1 > 16, `t = 16 (under the fingers) still shown: ${z0}..${z1}`);
  assert.ok(middle.x > box.x && middle.x < box.x + box.width);
  await pinch(page, { mid: middle.x, y: middle.y, from: 80, to: 20 });
  await page.waitForFunction((want) => {
    const c = document.querySelector(want.canvas);
    return Number(c.dataset.t1) - Number(c.dataset.t0) > want.span + 1e-9;
  }, { canvas, span: z1 - z0 });
  const [o0, o1] = await shown(page);
  assert.ok(o1 - o0 > z1 - z0, `zoomed back out to ${o0}..${o1}`);
  assert.deepEqual(problems, []);
  await page.close();
});
