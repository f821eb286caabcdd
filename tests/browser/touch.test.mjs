// Touch equivalents on a phone (Playwright hasTouch): a tap on a timeline cell shows what hover shows
// (its tooltip), two fingers spreading apart zoom in around their midpoint, and one finger then pans.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cellCentre, openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const CANVAS = '#panel-timeline canvas';
const windowOf = (page) => page.$eval(CANVAS, (c) => [Number(c.dataset.t0), Number(c.dataset.t1)]);

/** Touch points through the DevTools protocol: real touches, as a finger makes them. */
async function touch(page, type, points) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
  await cdp.detach();
}

test('a tap on a cell shows its tooltip, as hover does', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=8', { width: 390, height: 844, hasTouch: true });
  const cell = await cellCentre(page, CANVAS, { rank: 0, start: 0, end: 1 });
  await page.touchscreen.tap(cell.x, cell.y);
  const tooltip = page.locator('#panel-timeline .timeline-tooltip');
  await tooltip.waitFor({ state: 'visible' });
  assert.match(await tooltip.textContent(), /Forward/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('pinch: two fingers spreading apart zoom in around their midpoint; one finger then pans', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=8', { width: 390, height: 844, hasTouch: true });
  const box = await page.locator(CANVAS).boundingBox();
  const [t0, t1] = await windowOf(page);
  assert.equal(t0, 0);
  assert.equal(t1, 33);
  const y = box.y + box.height / 2;
  const mid = box.x + box.width * 0.6;
  await touch(page, 'touchStart', [[mid - 20, y], [mid + 20, y]]);
  for (const spread of [40, 60, 80, 100]) await touch(page, 'touchMove', [[mid - spread, y], [mid + spread, y]]);
  await touch(page, 'touchEnd', []);
  const [z0, z1] = await windowOf(page);
  assert.ok(z1 - z0 < (33 - 0) / 2, `zoomed in: ${z0}..${z1}`);
  assert.ok(z0 > 0 && z1 < 33, 'around the fingers, not at an edge');
  // One finger dragged to the left shows later time.
  await touch(page, 'touchStart', [[mid, y]]);
  for (const dx of [20, 40, 60]) await touch(page, 'touchMove', [[mid - dx, y]]);
  await touch(page, 'touchEnd', []);
  const [p0, p1] = await windowOf(page);
  assert.ok(p0 > z0, `panned later: ${z0} -> ${p0}`);
  assert.ok(Math.abs((p1 - p0) - (z1 - z0)) < 1e-9, 'panning keeps the zoom');
  assert.deepEqual(problems, []);
  await page.close();
});
