// The course widget on the course site's own path (web/public/examples/widget.html with
// course-site.js): a lesson's figure blocks through the course's HTML escape, into data-figure, mounted
// by a loader that calls the registered function with (host, JSON.parse of the rest or {}). In light
// and dark, at the course's 720 px column and on a phone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, cellCentre, openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const LIGHT = { bg: 'rgb(250, 250, 245)', ink: 'rgb(26, 26, 26)' };
const DARK = { bg: 'rgb(10, 13, 26)', ink: 'rgb(232, 230, 220)' };

const figure = (page, n) => page.locator('.lesson-figure').nth(n);
const timelineIn = (page, n) => figure(page, n).locator('pipesim-timeline');

async function openLesson(options = {}) {
  const opened = await browser.page('examples/widget.html', { ready: null, ...options });
  await figure(opened.page, 0).locator('[data-testid=makespan]').waitFor();
  return opened;
}

/** Pixels of the canvas inside figure n's element that have exactly the colour `rgb`. */
const pixelsOf = (page, n, rgb) =>
  timelineIn(page, n).evaluate((host, wanted) => {
    const c = host.shadowRoot.querySelector('canvas');
    const [r, g, b] = wanted.match(/\d+/g).map(Number);
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let count = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === r && d[i + 1] === g && d[i + 2] === b) count++;
    return count;
  }, rgb);

test("the course's escape carries a key=value config unchanged, and cuts a JSON config at its first quote", async () => {
  const { page, problems } = await openLesson();
  assert.equal(await figure(page, 0).getAttribute('data-figure'), 'pipesim P=8 M=20 schedules=dualpipe,1f1b view=compare');
  // What every JSON block of the course becomes: the attribute ends at the first quote.
  assert.equal(await figure(page, 2).getAttribute('data-figure'), 'pipesim\n{');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a key=value config is drawn as written: DualPipe against 1F1B at 8 ranks and 20 micro-batches', async () => {
  const { page, problems } = await openLesson();
  const element = timelineIn(page, 0);
  assert.equal(await figure(page, 0).locator('[data-testid=makespan]').textContent(), '66');
  assert.equal(await element.getAttribute('compare'), '1f1b');
  assert.equal(await element.getAttribute('view'), 'compare');
  assert.deepEqual(await element.evaluate((e) => [e.ranks, e.microBatches, e.summary.makespan]), [8, 20, 66]);
  assert.match(await figure(page, 0).locator('.lf-cap').textContent(), /on one time axis/);
  // Its own caption, given last on the line, spaces and all.
  await figure(page, 4).locator('[data-testid=makespan]').waitFor();
  assert.equal(await figure(page, 4).locator('.lf-cap').textContent(), 'ZB-V on 4 ranks: each rank holds two stages in a V.');
  assert.equal(await timelineIn(page, 4).evaluate((e) => e.schedule), 'zb-v');
  assert.deepEqual(problems, []);
  await page.close();
});

test('an unreadable config is named in the card, never replaced by the defaults', async () => {
  const { page, problems } = await openLesson();
  assert.match(await figure(page, 2).locator('.lf-error').textContent(), /^pipesim: the JSON config arrived cut at its first double quote .* write it without quotes, e\.g\. pipesim P=8 M=20/);
  assert.match(await figure(page, 3).locator('.lf-error').textContent(), /^pipesim: P \(ranks\) must be a whole number from 1 to 256$/);
  for (const n of [2, 3]) {
    assert.equal(await figure(page, n).locator('pipesim-timeline').count(), 0, `figure ${n} draws nothing`);
    assert.equal(await figure(page, n).locator('.lf-error').getAttribute('role'), 'alert');
  }
  // The widget reads the host itself: the same function handed a host with a bad line reports it
  // although the loader's own parse gave {}.
  const message = await page.evaluate(() => {
    const host = document.createElement('div');
    host.className = 'lesson-figure';
    host.setAttribute('data-figure', 'pipesim P=8 colour=red');
    document.getElementById('lesson').append(host);
    window.courseSite.mountLessonFigures(document.getElementById('lesson'));
    return host.querySelector('.lf-error').textContent;
  });
  assert.equal(message, 'pipesim: unknown config key "colour"; keys are P, M, V, schedules, schedule, cost, view, lang, caption');
  assert.deepEqual(problems, []);
  await page.close();
});

test('every view works in the card: the chunk\'s "Use these costs" draws the pipeline with its costs', async () => {
  const { page, problems } = await openLesson();
  const chunk = figure(page, 1);
  assert.match(await chunk.locator('.lf-cap').textContent(), /Inside one chunk/);
  const changes = await timelineIn(page, 1).evaluate((e) => {
    window.seen = [];
    e.addEventListener('pipesim-change', (ev) => window.seen.push(ev.detail));
    return window.seen.length;
  });
  assert.equal(changes, 0);
  await chunk.locator('[data-testid=chunk-use-costs]').click();
  await chunk.locator('[data-testid=makespan]').waitFor();
  const element = timelineIn(page, 1);
  assert.equal(await element.getAttribute('view'), 'timeline');
  assert.notEqual(await element.getAttribute('cost'), 'F=1,B=2,W=1,FB=3');
  assert.match(await chunk.locator('.lf-cap').textContent(), /Each row is a GPU/);
  const last = await page.evaluate(() => window.seen.at(-1));
  assert.equal(last.view, 'timeline');
  assert.equal(last.cost, await element.getAttribute('cost'));
  // The quiz view shows a question, in each card's own language although they share one page.
  await figure(page, 5).locator('[data-testid=quiz-question]').waitFor();
  await page.evaluate(() => {
    const host = document.createElement('div');
    host.className = 'lesson-figure';
    host.setAttribute('data-figure', 'pipesim view=quiz lang=zh-CN');
    document.getElementById('lesson').append(host);
    window.courseSite.mountLessonFigures(document.getElementById('lesson'));
  });
  const chinese = figure(page, 6).locator('[data-testid=quiz-question]');
  await chinese.waitFor();
  assert.match(await chinese.textContent(), /[\u4e00-\u9fff]/);
  assert.doesNotMatch(await figure(page, 5).locator('[data-testid=quiz-question]').textContent(), /[\u4e00-\u9fff]/);
  assert.deepEqual(problems, []);
  await page.close();
});

for (const [scheme, colours, other] of [['light', LIGHT, DARK], ['dark', DARK, LIGHT]]) {
  test(`in the course's ${scheme} theme the card, the element, its tooltip and its canvas take the course's colours, and follow the toggle`, async () => {
    const { page, problems } = await openLesson({ colorScheme: scheme });
    assert.equal(await page.getAttribute('html', 'data-theme'), scheme);
    const styleOf = (n) =>
      timelineIn(page, n).evaluate((host) => {
        const card = host.shadowRoot.querySelector('.card');
        const title = host.shadowRoot.querySelector('.card-title');
        return { card: getComputedStyle(card).backgroundColor, text: getComputedStyle(title).color };
      });
    assert.equal(await figure(page, 0).locator('.lf').evaluate((e) => getComputedStyle(e).backgroundColor), colours.bg);
    assert.deepEqual(await styleOf(0), { card: colours.bg, text: colours.ink });
    // Idle time on the canvas is the page's background.
    assert.ok((await pixelsOf(page, 0, colours.bg)) > 1000, 'idle cells in the page background');
    // A tooltip on the first cell of rank 0 of the ZB-V figure (one group, so the layout hooks apply).
    await figure(page, 4).locator('[data-testid=makespan]').waitFor();
    await figure(page, 4).scrollIntoViewIfNeeded();
    const at = await cellCentre(page, '.lesson-figure >> nth=4 >> canvas', { rank: 0, start: 0, end: 1 });
    await page.mouse.move(at.x, at.y);
    const tooltip = timelineIn(page, 4).locator('.timeline-tooltip');
    await tooltip.waitFor();
    assert.equal(await tooltip.evaluate((e) => getComputedStyle(e).backgroundColor), colours.bg);
    assert.equal(await tooltip.evaluate((e) => getComputedStyle(e).color), colours.ink);
    await page.screenshot({ path: join(ARTIFACTS, `course-widget-${scheme}-1400.png`), fullPage: true });

    // The site's toggle flips data-theme: the card and the canvas follow without a reload.
    await page.mouse.move(0, 0);
    await page.click('#theme-toggle');
    await page.waitForFunction(
      (bg) => getComputedStyle(document.querySelector('pipesim-timeline').shadowRoot.querySelector('.card')).backgroundColor === bg,
      other.bg,
    );
    assert.deepEqual(await styleOf(0), { card: other.bg, text: other.ink });
    assert.ok((await pixelsOf(page, 0, other.bg)) > 1000, 'the canvas redrawn in the new background');
    assert.equal(await pixelsOf(page, 0, colours.bg), 0, 'nothing left in the old background');
    // Moved elsewhere in the page (detached, then attached again), it still follows the toggle.
    await timelineIn(page, 0).evaluate((e) => {
      const parent = e.parentNode;
      e.remove();
      parent.append(e);
    });
    await page.click('#theme-toggle');
    await page.waitForFunction(
      (bg) => getComputedStyle(document.querySelector('pipesim-timeline').shadowRoot.querySelector('.card')).backgroundColor === bg,
      colours.bg,
    );
    await page.waitForFunction(() => document.querySelector('pipesim-timeline').shadowRoot.querySelector('canvas'));
    assert.ok((await pixelsOf(page, 0, colours.bg)) > 1000, 'redrawn after the second toggle');
    assert.equal(await pixelsOf(page, 0, other.bg), 0);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

for (const width of [1400, 390]) {
  test(`at ${width} px the cards fit the lesson column and break no word`, async () => {
    for (const scheme of ['light', 'dark']) {
      const { page, problems } = await openLesson({ width, colorScheme: scheme });
      await figure(page, 4).locator('[data-testid=makespan]').waitFor();
      await figure(page, 5).locator('[data-testid=quiz-question]').waitFor();
      const column = await page.locator('.lesson-content').evaluate((e) => e.getBoundingClientRect().width);
      assert.ok(column <= 720, `column ${column}`);
      const overflow = await page.evaluate(() => {
        const out = [];
        const walk = (root) => {
          for (const e of root.querySelectorAll('*')) {
            const s = getComputedStyle(e);
            if (s.wordBreak === 'break-all' || s.overflowWrap === 'anywhere' || s.wordBreak === 'break-word') out.push(`${e.className}: breaks words`);
            if (e.shadowRoot) walk(e.shadowRoot);
          }
        };
        walk(document);
        for (const card of document.querySelectorAll('.lf')) if (card.scrollWidth > card.clientWidth + 1) out.push(`card ${card.scrollWidth} > ${card.clientWidth}`);
        return out;
      });
      assert.deepEqual(overflow, []);
      await page.screenshot({ path: join(ARTIFACTS, `course-widget-${scheme}-${width}.png`), fullPage: true });
      assert.deepEqual(problems, []);
      await page.close();
    }
  });
}
