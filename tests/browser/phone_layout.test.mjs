// The phone layout (390 px) in every state a student meets: every tab, in each language, with the
// Controls drawer closed and open and the lesson offer shown, never scrolls the page sideways; the
// bubble-terms table scrolls inside its own box; the drawer's Close button covers neither the page
// (the lesson offer's "No thanks") nor the drawer's own fields, wherever the drawer is scrolled.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { VIEW_READY, openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const PHONE = { width: 390, height: 844 };
const VIEWS = Object.keys(VIEW_READY);

/** How far the page is wider than the screen (0 when it does not scroll sideways). */
const sideways = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function openDrawer(page, open) {
  const toggle = page.locator('[data-testid=controls-toggle]');
  if ((await toggle.getAttribute('aria-expanded')) === String(open)) return;
  await toggle.click();
  // Open: slid all the way in (its transform back to none); closed: hidden again.
  await page.waitForFunction((o) => {
    const style = getComputedStyle(document.querySelector('#controls'));
    return o ? style.transform === 'none' : style.visibility === 'hidden';
  }, open);
}

/** What the Close button hides: visible controls of the page or the drawer whose centre it is over. */
function coveredByToggle(page) {
  return page.evaluate(() => {
    const toggle = document.querySelector('[data-testid=controls-toggle]');
    const hits = [];
    for (const e of document.querySelectorAll('a[href], button, input, select, textarea, summary, [role=tab]')) {
      if (e === toggle || !e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.bottom < 0 || r.top > innerHeight) continue;
      const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === toggle || toggle.contains(hit))) continue;
      // Hidden by the button alone (not by the drawer under it): without the button, it shows.
      toggle.style.visibility = 'hidden';
      const beneath = document.elementFromPoint(x, y);
      toggle.style.visibility = '';
      if (beneath && (beneath === e || e.contains(beneath))) hits.push(e.dataset.testid ?? e.id ?? e.tagName);
    }
    return hits;
  });
}

for (const lang of ['en', 'pt-BR', 'zh-CN']) {
  test(`at 390 px no tab scrolls the page sideways in ${lang}, with the drawer closed or open and the lesson offered`, async () => {
    const { page, problems } = await browser.page(`?view=timeline&lang=${lang}`, PHONE);
    await page.waitForSelector('[data-testid=learn-offer]');
    const wide = [];
    for (const view of VIEWS) {
      await page.evaluate((v) => document.getElementById(`tab-${v}`).click(), view);
      await page.waitForSelector(`#panel-${view}:not([hidden])`);
      await page.waitForSelector(VIEW_READY[view]);
      await page.waitForSelector('#app[data-state=ready]:not([data-busy])');
      for (const open of [false, true]) {
        await openDrawer(page, open);
        const overflow = await sideways(page);
        if (overflow > 0) wide.push(`${view}${open ? ' (drawer open)' : ''}: ${overflow} px too wide`);
      }
      await openDrawer(page, false);
    }
    assert.deepEqual(wide, []);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('at 390 px the bubble-terms table fits the screen or scrolls inside its own box', async () => {
  for (const query of ['?view=timeline', '?view=timeline&schedule=dualpipev&lang=pt-BR', '?view=timeline&schedule=1f1b&lang=zh-CN']) {
    const { page, problems } = await browser.page(query, PHONE);
    await page.waitForSelector('[data-testid=bubble-terms] table');
    const box = await page.evaluate(() => {
      const terms = document.querySelector('[data-testid=bubble-terms]');
      const r = terms.getBoundingClientRect();
      return { left: r.left, right: r.right, overflowX: getComputedStyle(terms).overflowX };
    });
    assert.ok(box.left >= 0 && box.right <= PHONE.width, `${query}: the box [${box.left}, ${box.right}] lies on the screen`);
    assert.equal(box.overflowX, 'auto', `${query}: a wider table scrolls inside the box`);
    assert.equal(await sideways(page), 0, `${query}: the page does not scroll sideways`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('at 390 px the open drawer\'s Close button covers neither the lesson offer\'s "No thanks" nor a field of the drawer', async () => {
  const { page, problems } = await browser.page('?view=timeline', PHONE);
  await page.waitForSelector('[data-testid=learn-offer-dismiss]');
  await openDrawer(page, true);
  const [toggle, drawer] = [await page.locator('[data-testid=controls-toggle]').boundingBox(), await page.locator('#controls').boundingBox()];
  assert.ok(toggle.y >= drawer.y && toggle.y + toggle.height <= drawer.y + drawer.height, 'the button lies inside the drawer, over none of the page');
  assert.deepEqual(await coveredByToggle(page), [], 'drawer scrolled to its top');
  await page.evaluate(() => document.querySelector('#controls').scrollTo(0, 120));
  assert.deepEqual(await coveredByToggle(page), [], 'drawer scrolled a little');
  await page.evaluate(() => document.querySelector('#controls').scrollTo(0, 1e6));
  assert.deepEqual(await coveredByToggle(page), [], 'drawer scrolled to its end');
  // The drawer closed, the offer's buttons answer a tap as before.
  await openDrawer(page, false);
  await page.click('[data-testid=learn-offer-dismiss]');
  assert.equal(await page.locator('[data-testid=learn-offer]').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});
