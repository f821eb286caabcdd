// The page in Portuguese and Chinese: ?lang=pt-BR and ?lang=zh-CN render every view with no English
// UI string left. For each of the views (one page per language, each tab opened in turn) the visible text is collected (text nodes of rendered
// elements, body.innerText, aria-labels, titles and the options of the selects), plus the timeline's
// tooltip and idle explanation, the ops table, the quiz feedback and the live quiz; then no value of
// the English dictionary that the language translates may appear in it (case-sensitive, whole words;
// a value with {placeholders} is checked by its literal fragments of 12 characters or more). The
// English dictionary is read from web/src/i18n/en.ts by evaluating its object literal.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACTS, cellCentre, lazyTabArrived, openBrowser, screenshotForPeople, VIEW_READY as READY } from './harness.mjs';
import { loadEngine } from '../wasm/engine.mjs';

const I18N = fileURLToPath(new URL('../../web/src/i18n/', import.meta.url));

/** The object literal exported by `file` (`export const x = { ... } as const | satisfies ...;`). */
function literal(file) {
  const src = readFileSync(I18N + file, 'utf8');
  const start = src.indexOf('{', src.indexOf('export const'));
  const end = src.lastIndexOf('}', src.search(/\}\s*(as const|satisfies\b)[^;]*;\s*$/m) + 1);
  return Function(`"use strict"; return (${src.slice(start, end + 1)});`)();
}

const en = literal('en.ts');
const LANGS = {
  'pt-BR': { dict: literal('pt_br.ts'), label: 'Português (Brasil)' },
  'zh-CN': { dict: literal('zh_cn.ts'), label: '简体中文' },
};
/** Per language, every text of the engine's registry (schedules() and presets()). */
const registryTexts = {};
before(async () => {
  const engine = await loadEngine();
  for (const lang of Object.keys(LANGS))
    registryTexts[lang] = [
      ...engine.schedules().flatMap((s) => Object.values(s.texts[lang])),
      ...engine.presets().map((p) => p.texts[lang].name),
    ];
});
const VIEWS = ['learn', 'timeline', 'compare', 'charts', 'memory', 'chunk', 'exercises', 'quiz', 'planner'];
/** A key whose translation must be on screen in each view (the view's heading, or the tab's). */
const HEADING = {
  learn: 'learn.title',
  timeline: 'timeline.howTo',
  compare: 'compare.title',
  charts: 'charts.title',
  memory: 'memory.title',
  chunk: 'chunk.title',
  exercises: 'exercises.title',
  quiz: 'quiz.hint',
  planner: 'planner.title',
};
/** Present in every view: header, controls, readouts, tabs. */
const EVERYWHERE = ['app.tagline', 'ui.language', 'control.setup', 'control.costs', 'readout.bubbleFraction', 'readout.peak', 'tab.timeline', 'tab.planner'];

// Left out of the check, exactly:
// - text the engine writes, which is the CLI's English contract and may stay English: the Chimera
//   reason inside exercise 4's engine lines, a compare table's refused cell, and the closed form's
//   formula, worked numbers and condition text under "Closed form". Error boxes are checked: every
//   refusal they show is worded by the page from its rule (web/src/i18n/refusals.ts). The planner's reasons
//   are translated by the engine (core/data/planner_text.json) and its not-applicable list is worded
//   by the page from each refusal's rule (web/src/i18n/refusals.ts): both are checked like the rest;
// - code elements: formulas and CLI commands ("pipesim simulate --schedule dualpipe --ranks 8");
// - what lesson_text.json keeps English by design: the citations of the lesson's sources and the
//   report quoted in its own words.
const ENGINE_TEXT = [
  '.readout.formula .value',
  '.readout.formula .meta',
  '.error-cell',
  '.engine-lines',
  'code',
  '[data-i18n-test=citation]',
  '#panel-exercises blockquote',
  '#panel-exercises .statements li > .hint',
];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wordy = (s) => /[A-Za-z][a-z]{2,}/.test(s);

/** Regexes for the English text the page must no longer show in `lang`. */
function leftovers(lang) {
  const dict = LANGS[lang].dict;
  // The page's own strings and the schedules' and presets' texts, which come from the engine's registry.
  const translations = [...Object.values(dict), ...registryTexts[lang]].join('\n').replace(/\{\w+\}/g, ' ');
  const fragments = new Map();
  for (const [key, value] of Object.entries(en)) {
    if (dict[key] === value) continue; // deliberately identical (same_as_english.ts)
    const hasPlaceholders = /\{\w+\}/.test(value);
    const parts = hasPlaceholders
      ? value.split(/\{\w+\}/).map((p) => p.trim()).filter((p) => p.length >= 12)
      : [value.trim()].filter((p) => p.length >= 4);
    for (const part of parts.filter(wordy)) {
      const re = new RegExp(`${/^[\p{L}\p{N}]/u.test(part) ? '(?<![\\p{L}\\p{N}])' : ''}${escape(part)}${/[\p{L}\p{N}]$/u.test(part) ? '(?![\\p{L}\\p{N}])' : ''}`, 'u');
      // A single term the translations themselves keep ("Makespan" in "Makespan (tempo total)", the
      // "Bubble" of "Zero Bubble") is no leftover; a phrase always is.
      if (!/\s/.test(part) && re.test(translations)) continue;
      fragments.set(part, { key, re });
    }
  }
  return fragments;
}

/** Visible text of the page, engine text excluded; `raw` keeps the case CSS may transform. */
async function visibleText(page, sourcesLabel) {
  return page.evaluate(({ excluded, sourcesLabel }) => {
    for (const h5 of document.querySelectorAll('#panel-exercises h5'))
      if (h5.textContent === sourcesLabel) h5.nextElementSibling?.setAttribute('data-i18n-test', 'citation');
    const skip = (node) => excluded.some((sel) => node.closest?.(sel));
    const raw = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const parent = n.parentElement;
      if (!parent || skip(parent) || !n.textContent.trim()) continue;
      if (parent.closest('script, style, noscript, textarea')) continue;
      const shown = parent.checkVisibility({ visibilityProperty: true, checkVisibilityCSS: true }) || parent.closest('svg title');
      if (shown) raw.push(n.textContent);
    }
    for (const select of document.querySelectorAll('select'))
      if (select.checkVisibility() && !skip(select)) for (const o of select.options) raw.push(o.textContent);
    for (const node of document.querySelectorAll('[aria-label], [title]'))
      if (!skip(node) && (node.checkVisibility() || node.closest('svg')))
        raw.push(node.getAttribute('aria-label') ?? '', node.getAttribute('title') ?? '');
    // innerText as well, with the engine text hidden for the moment.
    const hidden = [...document.querySelectorAll(excluded.join(','))].filter((e) => e instanceof HTMLElement && !e.hidden);
    hidden.forEach((e) => (e.hidden = true));
    const inner = document.body.innerText;
    hidden.forEach((e) => (e.hidden = false));
    return { raw: raw.join('\n'), inner };
  }, { excluded: ENGINE_TEXT, sourcesLabel });
}

function assertNoEnglish(lang, where, texts) {
  const found = [];
  for (const [part, { key, re }] of leftovers(lang)) if (texts.some((t) => re.test(t))) found.push(`${key}: “${part}”`);
  assert.deepEqual(found, [], `${lang} ${where}: English UI text left on screen`);
}

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

/** Per language, one page: the language's first test opens it (?lang=...), and each view's test opens
 *  its tab in it, as a reader's click does, rather than loading the page once per view (a page load is
 *  most of a view's cost here). The views' checks only add what they read, so a view's text is checked
 *  whichever views were open before it. */
const pages = {};
async function showView(lang, view) {
  pages[lang] ??= await browser.page(`?lang=${lang}`); // a view run alone (--test-name-pattern) opens its page
  const { page, problems } = pages[lang];
  problems.length = 0; // each view answers for the console errors of its own visit only
  await page.evaluate((v) => document.getElementById(`tab-${v}`).click(), view);
  await page.waitForSelector(`#tab-${view}[aria-selected=true]`);
  await lazyTabArrived(page, view);
  await page.waitForSelector('#app[data-state=ready]:not([data-busy])');
  await page.evaluate(() => window.scrollTo(0, 0)); // where a page opened on the view starts
  return pages[lang];
}

for (const lang of Object.keys(LANGS)) {
  const { dict, label } = LANGS[lang];

  test(`${lang}: the page declares the language and the selector shows it`, async () => {
    pages[lang] = await browser.page(`?lang=${lang}`);
    const { page, problems } = pages[lang];
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    assert.equal(await page.inputValue('#lang-select'), lang);
    assert.equal(await page.locator('#lang-select option:checked').textContent(), label);
    assert.equal(await page.textContent('[data-testid=tab-timeline]'), dict['tab.timeline']);
    assert.equal(await page.textContent('#theme-toggle'), dict['ui.theme']);
    assert.deepEqual(problems, []);
  });

  for (const view of VIEWS) {
    test(`${lang}: the ${view} view shows no English UI string`, async () => {
      const { page, problems } = await showView(lang, view);
      await page.locator(READY[view]).first().waitFor();
      const texts = [];
      const collect = async () => {
        const { raw, inner } = await visibleText(page, dict['exercises.sources']);
        texts.push(raw, inner);
        return raw;
      };
      const first = await collect();
      // The lesson hides the readouts, which would give its predictions away.
      const everywhere = view === 'learn' ? EVERYWHERE.filter((key) => !key.startsWith('readout.')) : EVERYWHERE;
      for (const key of [...everywhere, HEADING[view]]) assert.ok(first.includes(dict[key]), `${lang} ${view}: “${dict[key]}” (${key}) not on screen`);

      if (view === 'timeline') {
        // The tooltip of rank 0's first op (F0 of direction 0, t = 0..1) and why rank 1 idles meanwhile.
        const canvas = '#panel-timeline canvas';
        const cell = await cellCentre(page, canvas, { rank: 0, start: 0, end: 1 });
        await page.mouse.move(cell.x, cell.y);
        const tooltip = page.locator('#panel-timeline .timeline-tooltip');
        await tooltip.waitFor({ state: 'visible' });
        const tip = await tooltip.textContent();
        assert.ok(tip.includes(dict['kind.F']), `${lang}: tooltip “${tip}” lacks ${dict['kind.F']}`);
        texts.push(tip);
        const idle = await cellCentre(page, canvas, { rank: 1, start: 0, end: 1 });
        await page.mouse.click(idle.x, idle.y);
        const explain = await page.textContent('[data-testid=explain]');
        assert.ok(explain.startsWith(dict['idle.title']), `${lang}: explanation “${explain}”`);
        texts.push(explain);
        await page.click('[data-testid=table-toggle]');
        await page.locator('[data-testid=ops-table]').waitFor();
        await collect();
      }
      if (view === 'quiz') {
        // Answer the first lesson question to see the feedback, then the questions for these settings.
        // Answers persist in the browser profile: start from none, and leave none behind.
        await page.click('[data-testid=quiz-reset]');
        await page.locator('[data-testid=quiz-option]').first().click();
        await page.locator('[data-testid=quiz-feedback]').waitFor();
        const feedback = await collect();
        assert.ok(feedback.includes(dict['quiz.retry']), `${lang}: quiz feedback`);
        await page.click('[data-testid=quiz-set-live]');
        await collect();
        await page.locator('[data-testid=quiz-option]').first().click();
        await page.locator('[data-testid=quiz-feedback]').waitFor();
        await collect();
        await page.click('[data-testid=quiz-reset]');
      }
      if (view === 'chunk') {
        await page.locator('#panel-chunk details summary').first().click(); // the workload fields
        await collect();
      }
      if (view === 'exercises') {
        // Each exercise asks for an answer first: a wrong one, then the worked solution.
        for (const n of [1, 2, 3, 4]) {
          const field = page.locator(`[data-testid=exercise-${n}-try]`);
          if ((await field.count()) === 0) continue;
          if ((await field.evaluate((e) => e.tagName)) === 'SELECT') await field.selectOption({ index: 2 });
          else await field.fill('0');
          await page.click(`[data-testid=exercise-${n}-check]`);
          await page.click(`[data-testid=exercise-${n}-reveal]`);
        }
        await collect();
        for (const summary of await page.locator('#panel-exercises details summary').all()) await summary.click();
        await collect();
      }

      assertNoEnglish(lang, view, texts);
      await screenshotForPeople(page, { path: join(ARTIFACTS, `i18n-${lang}-${view}.png`), fullPage: true });
      assert.deepEqual(problems, []);
      if (view === VIEWS.at(-1)) await page.close();
    });
  }
}

test('the course widget speaks the figure’s language, else the page’s, else English', async () => {
  const { page, problems } = await browser.page('examples/widget.html', { ready: null });
  await page.locator('.lesson-figure').first().locator('[data-testid=makespan]').waitFor();
  const mount = (cfg, pageLang) =>
    page.evaluate(
      ({ cfg, pageLang }) => {
        const html = document.documentElement;
        const before = html.getAttribute('lang');
        if (pageLang !== undefined) html.setAttribute('lang', pageLang);
        const host = document.createElement('div');
        document.querySelector('main').append(host);
        window.LESSON_FIGURES.pipesim(host, cfg); // the course's registry, as site/lesson-figures.js names it
        html.setAttribute('lang', before);
        return { hint: host.querySelector('.lf-hint').textContent, caption: host.querySelector('.lf-cap').textContent, error: host.querySelector('.lf-error')?.textContent ?? null };
      },
      { cfg, pageLang },
    );
  const english = await mount({ P: 4, M: 8 });
  assert.equal(english.hint, 'hover a cell · click an idle gap · drag to pan');
  assert.match(english.caption, /^Each row is a GPU/);
  const pt = await mount({ P: 4, M: 8, lang: 'pt-BR' });
  assert.match(pt.hint, /passe o mouse/);
  assert.match(pt.caption, /^Cada linha é uma GPU/);
  const zh = await mount({ P: 4, M: 8, lang: 'zh' });
  assert.match(zh.caption, /^每一行是一张 GPU/);
  assert.doesNotMatch(zh.hint, /[A-Za-z]/);
  assert.match((await mount({ P: 4, M: 8 }, 'pt-BR')).caption, /^Cada linha/, 'falls back to <html lang>');
  const french = await mount({ P: 4, M: 8, lang: 'fr' }, 'zh-CN');
  assert.equal(french.error, 'pipesim: lang must be en, pt-BR or zh-CN', 'an unknown lang is named, not replaced');
  assert.match(french.caption, /^每一行/, 'the card itself speaks the page’s language');
  assert.match((await mount({ P: 4, M: 8 }, 'fr')).caption, /^Each row/, 'then English');
  assert.equal((await mount({ P: 4, M: 8, caption: 'Mine.' }, 'zh-CN')).caption, 'Mine.', 'an author caption wins');
  assert.deepEqual(problems, []);
  await page.close();
});
