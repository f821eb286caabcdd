// Hostile input through every binding the page calls, asked of the built modules: every refusal that
// comes back is a PipesimError whose wording key web/src/i18n/refusals.ts words in pt-BR and zh-CN,
// with no English left and no placeholder unfilled. The table names the rule each input breaks, so a
// refusal that loses its key (or changes rule) fails by name; refusal_sites.test.mjs checks the
// sources for the sites no input here reaches.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';
import { loadCourse, loadEngine, loadTools } from '../wasm/engine.mjs';
import { ENGLISH } from './fixtures/refused_links.mjs';
import { RUN, hostileBindings, plannerInput, refusalOf } from './fixtures/hostile_bindings.mjs';

const { setLang, wordRefusal } = await loadWebModule('../../tests/web/fixtures/refusal_wording');
const { refusalTemplate } = await loadWebModule('i18n/refusals');
const engine = await loadEngine();
const course = await loadCourse();
// Exports and profiler traces are the tools module's calls, as on the page.
const tools = await loadTools();

const HOSTILE = hostileBindings({ engine, course, tools });
const run = (extra) => ({ ...RUN, ...extra });

test('each hostile input is refused by the rule it breaks, and the refusal says which rule', () => {
  const wrong = [];
  for (const [key, call] of HOSTILE) {
    try {
      call();
      wrong.push(`${key}: not refused`);
    } catch (e) {
      if (e?.name !== 'PipesimError') wrong.push(`${key}: threw ${e}`);
      else if (e.wording?.key !== key) wrong.push(`${key}: got ${e.wording?.key ?? 'no key'} (${e.message})`);
    }
  }
  assert.deepEqual(wrong, []);
});

for (const language of ['pt-BR', 'zh-CN']) {
  test(`every refusal of a hostile input is worded in ${language}: a known key, no English, no placeholder left`, async () => {
    await setLang(language, { updateDocument: false });
    const problems = [];
    for (const [key, call] of HOSTILE) {
      const e = refusalOf(key, call);
      if (!refusalTemplate(language, e.wording?.key ?? '')) problems.push(`${key}: ${e.wording?.key} has no ${language} sentence`);
      const text = wordRefusal(e.message, e.wording);
      if (ENGLISH.test(text) || /\{\w+\}/.test(text.replace(/\{(schedule|ratio|schedule, model)\b[^}]*\}/g, ''))) problems.push(`${key}: ${text}`);
    }
    await setLang('en', { updateDocument: false });
    assert.deepEqual(problems, []);
  });
}

test('a refusal inside one stage or trace names that stage or trace in the page\'s language', async () => {
  const stage = refusalOf('cost.w_exceeds_b', () => engine.simulate(run({ stageCost: ['1:W=9'] })));
  assert.match(stage.message, /^stage 1: cost W \(9\) must not exceed B/);
  await setLang('pt-BR', { updateDocument: false });
  assert.match(wordRefusal(stage.message, stage.wording), /^estágio 1: o custo W \(9\) não pode passar de B \(2\)/);
  await setLang('zh-CN', { updateDocument: false });
  assert.match(wordRefusal(stage.message, stage.wording), /^阶段 1：成本 W（9）不能超过 B（2）/);
  await setLang('en', { updateDocument: false });
  assert.equal(wordRefusal(stage.message, stage.wording), stage.message);
  // The second of two traces is no profiler trace: the refusal says which trace, in each language.
  const trace = refusalOf('profile_trace.top_array', () => tools.measuredPipeline(['{"schemaVersion": 1, "traceEvents": []}', '[]']));
  assert.match(trace.message, /^trace 2: not a profiler trace: the JSON is an array/);
  await setLang('pt-BR', { updateDocument: false });
  assert.match(wordRefusal(trace.message, trace.wording), /^trace 2: não é um trace do profiler: o JSON é um array/);
  await setLang('zh-CN', { updateDocument: false });
  assert.match(wordRefusal(trace.message, trace.wording), /^trace 2：不是 profiler trace：该 JSON 是数组/);
  await setLang('en', { updateDocument: false });
});

test('the new refusals keep their English messages, which the CLI prints', () => {
  const message = (call) => refusalOf('', call).message;
  assert.equal(message(() => engine.simulate(run({ stageCost: ['0:F=abc'] }))), "--stage-cost cost F must be a number, got 'abc'");
  assert.equal(message(() => course.plan(plannerInput((i) => (i.language = 5)), 'en')), 'plan input: language must be a string like "pt-BR", got 5');
  assert.equal(message(() => course.plan(plannerInput((i) => (i.language = 'fr')), 'en')), "plan input: unknown language 'fr'; languages are en, pt-BR, zh-CN");
});
