// On a phone (390 px) the guided lesson's offer is the first thing a newcomer sees: it heads the
// view, inside the first screen, in every language and whatever the schedule (the readouts and the
// bubble terms above it used to push it far below the fold), and the Controls drawer, closed or
// open, covers neither of its buttons.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const PHONE = { width: 390, height: 844 };

/** The offer's buttons that a tap at their centre would not reach (something else is on top). */
const unreachable = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('[data-testid=learn-offer] button')].filter((b) => {
      const r = b.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return !(hit === b || b.contains(hit));
    }).map((b) => b.dataset.testid),
  );

/** The open drawer's controls on screen that the offer lies over. */
const coveredByOffer = (page) =>
  page.evaluate(() => {
    const offer = document.querySelector('[data-testid=learn-offer]');
    return [...document.querySelectorAll('#controls button, #controls input, #controls select, #controls summary')].filter((e) => {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.bottom < 0 || r.top > innerHeight) return false;
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit !== null && offer.contains(hit);
    }).map((e) => e.dataset.testid ?? e.id ?? e.tagName);
  });

for (const [lang, query] of [['en', '?view=timeline'], ['pt-BR', '?view=timeline&schedule=dualpipev&lang=pt-BR'], ['zh-CN', '?view=timeline&schedule=1f1b&lang=zh-CN']]) {
  test(`at 390 px the lesson offer is inside the first screen, above the readouts, in ${lang}`, async () => {
    const { page, problems } = await browser.page(query, PHONE);
    const offer = page.locator('[data-testid=learn-offer]');
    await offer.waitFor();
    const box = await offer.boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= PHONE.height, `the offer [${box.y}, ${box.y + box.height}] lies in the first ${PHONE.height} px`);
    const readouts = await page.locator('#readouts').boundingBox();
    assert.ok(box.y + box.height <= readouts.y, 'the offer comes before the readouts');
    assert.deepEqual(await unreachable(page), [], 'both buttons answer a tap with the drawer closed');
    await page.click('[data-testid=controls-toggle]');
    await page.waitForFunction(() => getComputedStyle(document.querySelector('#controls')).transform === 'none');
    assert.deepEqual(await coveredByOffer(page), [], 'the offer covers none of the open drawer\'s controls');
    await page.evaluate(() => window.scrollTo(0, 0));
    assert.deepEqual(await coveredByOffer(page), [], 'nor with the page scrolled back to its top');
    assert.deepEqual(await unreachable(page), [], 'where the drawer leaves the top of the screen, both buttons still answer a tap');
    assert.deepEqual(problems, []);
    await page.close();
  });
}
