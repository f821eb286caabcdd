// The Controls button on a phone (390 px): docked under the tabs, in the page's flow, it covers no
// control, link, legend or figure on any tab, wherever the page is scrolled; it opens the drawer and,
// in the drawer's top strip, closes it again.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const VIEWS = ['learn', 'timeline', 'compare', 'charts', 'memory', 'chunk', 'exercises', 'quiz', 'planner'];
const PHONE = { width: 390, height: 844 };

/** What of the page, besides the button itself, the button's rectangle overlaps (visible ones only). */
function covered(page) {
  return page.evaluate(() => {
    const button = document.querySelector('[data-testid=controls-toggle]');
    const b = button.getBoundingClientRect();
    const selector = 'a[href], button, input, select, textarea, summary, [tabindex], [role=tab], canvas, svg, .legend';
    const hits = [];
    for (const e of document.querySelectorAll(selector)) {
      if (e === button || e.contains(button) || button.contains(e)) continue;
      if (e.closest('#controls')) continue; // the drawer, closed: off screen and hidden
      if (!e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if (r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom)
        hits.push(`${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.dataset.testid ? `[${e.dataset.testid}]` : ''}.${e.className?.baseVal ?? e.className}`);
    }
    return hits;
  });
}

test('at 390 px the Controls button covers nothing on any tab, at the top of the page or scrolled to its end', async () => {
  const { page, problems } = await browser.page('?view=timeline', PHONE);
  const toggle = page.locator('[data-testid=controls-toggle]');
  for (const view of VIEWS) {
    await page.click(`[data-testid=tab-${view}]`);
    await page.waitForSelector(`#panel-${view}:not([hidden])`);
    await page.evaluate(() => window.scrollTo(0, 0));
    assert.equal(await toggle.isVisible(), true, `${view}: the button is shown`);
    assert.deepEqual(await covered(page), [], `${view}, top of the page`);
    for (const fraction of [0.5, 1]) {
      await page.evaluate((f) => window.scrollTo(0, f * document.documentElement.scrollHeight), fraction);
      assert.deepEqual(await covered(page), [], `${view}, scrolled ${fraction * 100}%`);
    }
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('at 390 px the button opens the drawer over the view and, in the drawer’s top strip, closes it', async () => {
  const { page, problems } = await browser.page('?view=timeline', PHONE);
  const toggle = page.locator('[data-testid=controls-toggle]');
  const drawer = page.locator('#controls');
  assert.equal(await drawer.isVisible(), false);
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
  await page.waitForFunction(() => getComputedStyle(document.querySelector('#controls')).transform === 'none');
  const [b, d] = [await toggle.boundingBox(), await drawer.boundingBox()];
  // Inside the drawer's top strip: above the drawer it covered the page (the lesson offer's "No thanks").
  assert.ok(b.y >= d.y && b.y + b.height <= d.y + 48 + 1e-6, `the open button [${b.y}, ${b.y + b.height}] lies in the drawer's top strip (from ${d.y})`);
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
  await page.waitForFunction(() => getComputedStyle(document.querySelector('#controls')).visibility === 'hidden');
  assert.deepEqual(problems, []);
  await page.close();
});
