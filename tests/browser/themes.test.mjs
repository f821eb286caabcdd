// Themes checked by a machine: axe-core in Chromium over every tab, in the light and dark themes and
// with the colour-blind palette, at a desktop and a phone width, finds no contrast or naming problem.
// Each theme, palette and width is one page load whose tabs are opened in turn, as a reader would.
// PIPESIM_SCREENSHOTS=1 also writes a screenshot of every tab in both themes and both widths to
// artifacts/themes/ (for a person to look at: no check reads them, so a plain run does not take them).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ARTIFACTS, openBrowser, SCREENSHOTS, screenshotForPeople } from './harness.mjs';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SHOTS = join(ARTIFACTS, 'themes');
if (SCREENSHOTS) mkdirSync(SHOTS, { recursive: true });

/** What each tab shows once it has drawn (the course tabs and the sweeps load or run first). */
export const TAB_READY = {
  learn: '[data-testid=learn-title]',
  timeline: '#panel-timeline canvas[data-t1]',
  compare: '#panel-compare canvas[data-t1]',
  charts: '#panel-charts[data-swept-in] .chart-card',
  memory: '[data-testid=parameters-table]',
  chunk: '#panel-chunk svg',
  exercises: '#panel-exercises .exercise',
  quiz: '#panel-quiz [data-testid=quiz-option]',
  planner: '#panel-planner table',
};
export const TABS = Object.keys(TAB_READY);

/** Contrast, and every rule that asks a control, image or frame for an accessible name. */
const RULES = [
  'color-contrast',
  'button-name',
  'link-name',
  'label',
  'select-name',
  'input-button-name',
  'aria-input-field-name',
  'aria-toggle-field-name',
  'aria-command-name',
  'aria-progressbar-name',
  'aria-meter-name',
  'aria-tooltip-name',
  'aria-dialog-name',
  'image-alt',
  'svg-img-alt',
  'role-img-alt',
  'frame-title',
  'summary-name',
  'document-title',
];

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

/** axe's violations of RULES on the page as it is, one line each. */
async function violations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE); // evaluated by the driver: the CSP does not apply
  const found = await page.evaluate(async (rules) => {
    const result = await window.axe.run(document, { runOnly: { type: 'rule', values: rules }, resultTypes: ['violations'] });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}: ${n.failureSummary.split('\n').slice(1).join(' ').trim()}`));
  }, RULES);
  return found;
}

/** The page with `theme` and `palette` stored as a returning reader's choices, opened on `view`. */
async function openTab(theme, palette, width, view) {
  const { page, problems } = await browser.page(null, { width, height: width < 600 ? 844 : 900, colorScheme: theme });
  await page.addInitScript(
    ([t, p]) => {
      localStorage.setItem('pipesim:theme', t);
      localStorage.setItem('pipesim:palette', p);
    },
    [theme, palette],
  );
  await page.goto(`${browser.url}?view=${view}`);
  await tabDrawn(page, view);
  return { page, problems };
}

/** Waits until `view` is the open tab and has drawn. */
async function tabDrawn(page, view) {
  await page.waitForSelector(`#tab-${view}[aria-selected=true]`);
  await page.waitForSelector('#app[data-state=ready]:not([data-busy])');
  await page.waitForSelector(TAB_READY[view]);
}

/** Opens tab `view` as a click on its tab does (the click itself: nothing may cover the tab to matter here). */
async function switchTo(page, view) {
  await page.evaluate((v) => document.getElementById(`tab-${v}`).click(), view);
  await tabDrawn(page, view);
}

for (const theme of ['light', 'dark']) {
  for (const palette of ['default', 'cb']) {
    for (const width of [1400, 390]) {
      test(`axe finds no contrast or name violation on any tab: ${theme} theme, ${palette} palette, ${width} px`, async () => {
        const report = [];
        const { page, problems } = await openTab(theme, palette, width, TABS[0]);
        for (const view of TABS) {
          if (view !== TABS[0]) await switchTo(page, view);
          assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), theme);
          for (const v of await violations(page)) report.push(`${view}: ${v}`);
          // No tab makes the page scroll sideways, at either width.
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          if (overflow > 1) report.push(`${view}: the page is ${overflow} px wider than the screen`);
          if (palette === 'default') await screenshotForPeople(page, { path: join(SHOTS, `${view}-${theme}-${width}.png`), fullPage: true });
          assert.deepEqual(problems, [], `${view}: console errors`);
        }
        await page.close();
        assert.deepEqual(report, []);
      });
    }
  }
}

test('in the dark theme, tab labels and quiz answers are light text, before and after an answer and after a reload', async () => {
  const { page, problems } = await openTab('dark', 'default', 1400, 'quiz');
  const ink = (selector) => page.locator(selector).first().evaluate((e) => getComputedStyle(e).color);
  const cssVar = (name) => page.evaluate((n) => getComputedStyle(document.documentElement).getPropertyValue(n).trim(), name);
  const rgb = (hex) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
  assert.equal(await ink('[data-testid=tab-timeline]'), rgb(await cssVar('--ink-soft')), 'an unselected tab');
  assert.equal(await ink('[data-testid=tab-quiz]'), rgb(await cssVar('--ink')), 'the selected tab');
  assert.equal(await ink('[data-testid=quiz-option]'), rgb(await cssVar('--ink')), 'a quiz answer');
  // Answered (right and wrong answers marked), the options and feedback still pass axe.
  await page.click('[data-testid=quiz-option] >> nth=0');
  await page.waitForSelector('[data-testid=quiz-feedback]');
  assert.deepEqual(await violations(page), []);
  // The choice of theme is kept: after a reload the page is dark and still readable.
  await page.reload();
  await page.waitForSelector(TAB_READY.quiz);
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  assert.equal(await ink('[data-testid=tab-timeline]'), rgb(await cssVar('--ink-soft')));
  assert.deepEqual(await violations(page), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('zh-CN text is drawn with a CJK font (the set-up installs one)', async () => {
  const { page, problems } = await browser.page('?lang=zh-CN');
  // A glyph missing from every font is drawn as the same box: two different characters of the
  // same width that render differently prove the font has them.
  const differ = await page.evaluate(() => {
    const c = document.createElement('canvas');
    const draw = (ch) => {
      const g = c.getContext('2d');
      c.width = 40;
      c.height = 40;
      g.font = `32px ${getComputedStyle(document.body).fontFamily}`;
      g.fillText(ch, 2, 32);
      return c.toDataURL();
    };
    return draw('调') !== draw('度');
  });
  assert.equal(differ, true);
  await screenshotForPeople(page, { path: join(SHOTS, 'timeline-zh-CN.png') });
  assert.deepEqual(problems, []);
  await page.close();
});
