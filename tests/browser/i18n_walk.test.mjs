// Every tab walked in pt-BR and zh-CN, next to the same walk in English: a text on screen that is the
// very text the English page shows there, and that holds an English word, is English left in view.
// The walk: each of the nine tabs, each step of the guided lesson, the chunk derivation opened, the
// planner's not-applicable list (DeepSeek-V3's example: Interleaved 1F1B and Chimera do not apply),
// a refused input (DualPipe at 7 ranks), a refused planner JSON and a refused workload field. What
// may read the same in every language is listed below with its reason; nothing else is exempt.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, VIEW_READY as READY } from './harness.mjs';
import { loadEngine } from '../wasm/engine.mjs';

let browser;
/** Words of the schedules' names (DualPipe, GPipe, ZB-H1, ...), which are names in every language. */
let scheduleWords;
before(async () => {
  browser = await openBrowser();
  const engine = await loadEngine();
  scheduleWords = new Set(engine.schedules().flatMap((s) => `${s.name} ${s.texts.en.title}`.split(/[^A-Za-z]+/)).filter(Boolean).map((w) => w.toLowerCase()));
  english = await walk('en');
});
after(async () => browser?.close());

const VIEWS = ['learn', 'timeline', 'compare', 'charts', 'memory', 'chunk', 'exercises', 'quiz', 'planner'];
const LESSON_STEPS = 8;

/** Words that read the same in every language, and why. */
const SAME_EVERYWHERE = new Set([
  // units and hardware: µs, ms, GB, GiB, TFLOP/s, GPU, SMs, NVLink, InfiniBand (written as they are)
  'us', 'ms', 'gb', 'gib', 'mb', 'tb', 'flop', 'tflop', 'tflops', 'gpu', 'gpus', 'sms', 'nvlink', 'infiniband', 'bf16', 'fp8', 'fp32',
  // the formulas' letters and functions: max(1, 20/20), PP/2-1, BW_IB, d_a, P_a
  'max', 'min', 'bw_ib', 'bw_nv',
  // the chunk's components as DeepSeek-V3's Fig. 4 names them (ATTN(F), MLP(B), DISPATCH(F), COMBINE(B), PP)
  'attn', 'mlp', 'dispatch', 'combine',
  // the all-to-all, the collective's own name in both languages' literature
  'all', 'to',
  // the models and reports the page names (DeepSeek-V3, PyTorch, JSON, CSV, SVG, Perfetto, Chrome)
  'deepseek', 'pytorch', 'torch', 'json', 'csv', 'svg', 'perfetto', 'chrome', 'trace', 'moe', 'github',
  // the page's own name, and the image format of the PNG export
  'pipesim', 'png',
  // the per-stage cost syntax a field's placeholder shows ("last:F=2,B=4"): a keyword typed as it is;
  // the cost keys as the stage table heads them (F, B, W, FB, comm), the names the URL's cost= takes
  'last', 'comm',
]);
/** Words the translations keep from English on purpose (web/src/i18n/same_as_english.ts gives why). */
const KEPT = {
  'pt-BR': new Set(['rank', 'ranks', 'micro', 'batch', 'batches', 'forward', 'backward', 'quiz', 'makespan', 'cluster']),
  'zh-CN': new Set(['rank', 'ranks', 'makespan']),
};

/** The page's visible text nodes (trimmed), each with the closest element's test id or tag, for messages. */
function visibleTexts(page) {
  return page.evaluate(() => {
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent.replace(/\s+/g, ' ').trim();
      const parent = n.parentElement;
      if (!text || !parent || parent.closest('script, style, template')) continue;
      if (!parent.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const where = parent.closest('[data-testid]')?.getAttribute('data-testid') ?? parent.tagName.toLowerCase();
      out.push({ text, where });
    }
    // Labels read out to screen readers are text in view too.
    for (const e of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
      if (!e.checkVisibility()) continue;
      for (const a of ['aria-label', 'title', 'placeholder']) {
        const v = e.getAttribute(a)?.trim();
        if (v) out.push({ text: v, where: `${e.tagName.toLowerCase()}[${a}]` });
      }
    }
    return out;
  });
}

/** The English words of `text` that are neither names, units nor letters. */
function englishWords(text, lang) {
  const words = text.match(/[A-Za-z][A-Za-z_]{2,}/g) ?? [];
  return words.filter((w) => {
    const lower = w.toLowerCase();
    return !scheduleWords.has(lower) && !SAME_EVERYWHERE.has(lower) && !KEPT[lang].has(lower);
  });
}


/** Each state of the walk: a name and how to reach it from the page open at `?lang=...`. */
const WALK = [
  ...VIEWS.filter((v) => v !== 'learn').map((view) => ({
    name: view,
    async reach(page) {
      await page.click(`[data-testid=tab-${view}]`);
      await page.waitForSelector(`#panel-${view} ${READY[view].replace(/^#panel-\w+ /, '')}`, { state: 'visible' });
      if (view === 'chunk') await page.click('#panel-chunk details:has(> .table-scroll) > summary');
      if (view === 'planner') {
        await page.selectOption('[data-testid=planner-example]', 'deepseek-v3');
        await page.waitForSelector('[data-testid=planner-not-applicable]');
      }
    },
  })),
  ...Array.from({ length: LESSON_STEPS }, (_, k) => ({
    name: `lesson step ${k + 1}`,
    async reach(page) {
      await page.click('[data-testid=tab-learn]');
      await page.click(`[data-testid=learn-step-${k + 1}]`);
      await page.waitForSelector('[data-testid=learn-ask]');
      // A prediction committed, so that the answer and its explanation are in view too.
      const options = page.locator('[data-testid=learn-option]');
      if ((await options.count()) > 0) await options.nth(0).check();
      else await page.fill('[data-testid=learn-number]', '0');
      await page.click('[data-testid=learn-commit]');
      await page.waitForSelector('[data-testid=learn-explain]');
    },
  })),
  {
    name: 'a refused input (DualPipe at 7 ranks)',
    async reach(page) {
      await page.click('[data-testid=tab-timeline]');
      await page.fill('#ranks', '7');
      await page.press('#ranks', 'Enter');
      await page.waitForSelector('[data-testid=ranks-refusal]', { state: 'visible' });
    },
  },
  {
    name: 'a refused planner input (model.layers 0 in its JSON)',
    async reach(page) {
      await page.click('[data-testid=tab-planner]');
      const input = JSON.parse(await page.inputValue('[data-testid=planner-input]'));
      input.model.layers = 0;
      await page.fill('[data-testid=planner-input]', JSON.stringify(input));
      await page.waitForSelector('[data-testid=planner-error]', { state: 'visible' });
    },
  },
  {
    name: 'a refused workload field (gpu_tflops 0 in the Chunk tab)',
    async reach(page) {
      await page.click('[data-testid=tab-chunk]');
      await page.click('#panel-chunk details.chunk-workload > summary');
      await page.fill('[data-testid=chunk-gpu_tflops]', '0');
      await page.waitForSelector('[data-testid=chunk-error]', { state: 'visible' });
    },
  },
];

/** The walk in `lang`: per state, its visible texts. A fresh lesson (no progress kept) each time: every
 *  page opens in a browser context of its own, with empty storage (tests/browser/chromium.mjs). */
async function walk(lang) {
  const { page, problems } = await browser.page(`?lang=${lang}&view=timeline`);
  const seen = [];
  for (const state of WALK) {
    await state.reach(page);
    seen.push({ name: state.name, texts: await visibleTexts(page) });
  }
  await page.close();
  return { seen, problems };
}

let english;

for (const lang of ['pt-BR', 'zh-CN']) {
  test(`in ${lang}, no text on any tab, lesson step, planner list or refusal is the English page's English`, async () => {
    const { seen, problems } = await walk(lang);
    const leftovers = [];
    seen.forEach(({ name, texts }, k) => {
      const englishTexts = new Set(english.seen[k].texts.map((t) => t.text));
      for (const { text, where } of texts) {
        if (!englishTexts.has(text)) continue;
        const words = englishWords(text, lang);
        if (words.length > 0) leftovers.push(`${name} · ${where}: “${text}” (${words.join(', ')})`);
      }
    });
    assert.deepEqual([...new Set(leftovers)], [], `English left in ${lang}`);
    assert.deepEqual(problems, []);
  });
}

test('the walk reaches what it claims: the planner lists its not-applicable schedules and the refusal is shown', () => {
  const at = (name) => english.seen.find((s) => s.name === name).texts.map((t) => t.where);
  assert.ok(at('planner').filter((w) => w === 'planner-not-applicable').length === 2, 'Interleaved 1F1B and Chimera');
  assert.ok(english.seen.find((s) => s.name.startsWith('a refused')).texts.some((t) => /dualpipe needs an even number of ranks/.test(t.text)));
  assert.ok(english.seen.find((s) => s.name === 'chunk').texts.some((t) => /^given × total\/\(total-comm\)$|^L·T·/.test(t.text)), 'the derivation is open');
  const refusalOf = (name) => english.seen.find((s) => s.name.startsWith(name)).texts.map((t) => t.text).join('\n');
  assert.match(refusalOf('a refused planner input'), /plan input: model\.layers must be a whole number from 1 to 100000, got 0/);
  assert.match(refusalOf('a refused workload field'), /workload field 'gpu_tflops' must be a number > 0, got 0/);
});
