// Engine refusals in the page's language, in Node: each link of tests/browser/refusals.test.mjs read as
// the page reads it, asked of the built module as the page asks it, and its refusal worded from the
// page's catalogue (web/src/i18n/refusals.ts) as the error box words it: in pt-BR and zh-CN no English
// is left. The browser test keeps one link per language (the error box and the field as drawn).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { ENGLISH, REFUSED } from './fixtures/refused_links.mjs';

const { setLang, t, wordRefusal, readState, requestOf, moduleRequest } = await loadWebModule('../../tests/web/fixtures/refusal_wording');
const engine = await loadEngine();
const traits = new Map(engine.schedules().map((s) => [s.name, s]));

/** The error box's text for the page at `query`: its "refused" label and the worded refusal. */
function errorBoxText(query) {
  const state = readState(`?${query}`);
  try {
    engine.simulate(moduleRequest(requestOf(state, state.schedule, traits.get(state.schedule))));
  } catch (e) {
    if (e?.name !== 'PipesimError') throw e;
    return `${t('error.refused')} ${wordRefusal(e.message, e.wording)}`;
  }
  assert.fail(`${query}: not refused`);
}

for (const lang of ['pt-BR', 'zh-CN']) {
  test(`every engine refusal is worded in ${lang}, none left in English`, async () => {
    await setLang(lang, { updateDocument: false });
    const seen = {};
    for (const [key, query] of Object.entries(REFUSED)) {
      const text = errorBoxText(query);
      assert.doesNotMatch(text, ENGLISH, `${key}: ${text}`);
      seen[key] = text;
    }
    if (lang === 'pt-BR') {
      assert.match(seen['dualpipe.even_ranks'], /o dualpipe precisa de um número par de ranks, pelo menos 2: .*\(recebeu 7 ranks\)/);
      assert.match(seen['cost.fb_range'], /o custo FB \(3\) deve ficar em \[max\(F,B\), F\+B\] = \[6, 7\]/);
      assert.match(seen['size.whole_number'], /ranks deve ser um número inteiro, recebeu abc/);
    } else {
      assert.match(seen['dualpipe.even_ranks'], /dualpipe 需要偶数个 rank，至少 2 个.*（收到 7 个 rank）/);
      assert.match(seen['schedule.unknown'], /未知的调度“nope”/);
    }
    await setLang('en', { updateDocument: false });
  });
}

test('an English page shows the engine\'s own text', async () => {
  await setLang('en', { updateDocument: false });
  assert.match(errorBoxText('ranks=7'), /dualpipe needs an even number of ranks, at least 2: rank r is paired with rank N-1-r \(got 7 ranks\)/);
});
