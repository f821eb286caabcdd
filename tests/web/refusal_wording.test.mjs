// Engine refusals in the page's language, in Node: each link of tests/browser/refusals.test.mjs read as
// the page reads it, asked of the built module as the page asks it, and its refusal worded from the
// page's catalogue (web/src/i18n/refusals.ts) as the error box words it: in pt-BR and zh-CN no English
// is left. The browser test keeps one link per language (the error box and the field as drawn).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
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

// The planner's JSON input and the chunk model's workload: refused by the course module and the engine
// module as the Planner and Chunk tabs ask them, worded from the same catalogue.
const { loadCourse } = await import('../wasm/engine.mjs');
const course = await loadCourse();
const SMALL_DENSE = readFileSync(fileURLToPath(new URL('../../core/data/plan_examples/small-dense.json', import.meta.url)), 'utf8');
const plannerInput = (change) => {
  const input = JSON.parse(SMALL_DENSE);
  change(input);
  return JSON.stringify(input);
};
const DIRECT = { forward: 'attn=1,dispatch=1,mlp=1,combine=1', backward: 'combine=1,mlp_b=1,mlp_w=1,dispatch=1,attn_b=1,attn_w=1' };
const WORKLOAD = { tokens: 4096, hidden: 7168, experts: 256, top_k: 8, expert_hidden: 2048, nodes_per_token: 4, bytes_per_element: 1, gpu_tflops: 400, nvlink_gbps: 160, ib_gbps: 50 };
/** Inputs each refused by one rule, by the rule's key: [module call, expected key]. */
const COURSE_REFUSED = {
  'plan.not_json': () => course.plan('{', 'en'),
  'plan.unknown_key': () => course.plan(plannerInput((i) => (i.model.layer = 3)), 'en'),
  'plan.missing_whole': () => course.plan(plannerInput((i) => delete i.model.layers), 'en'),
  'plan.range_whole': () => course.plan(plannerInput((i) => (i.model.pp = 'four')), 'en'),
  'plan.range_number': () => course.plan(plannerInput((i) => (i.cluster.gpu.tflops = -1)), 'en'),
  'plan.gpus_multiple_of_pp': () => course.plan(plannerInput((i) => (i.model.pp = 3)), 'en'),
  'workload.unknown_field': () => engine.overlap({ workload: JSON.stringify({ ...WORKLOAD, hiden: 1 }) }),
  'workload.missing': () => engine.overlap({ workload: JSON.stringify({ tokens: 4096 }) }),
  'workload.whole': () => engine.overlap({ workload: JSON.stringify({ ...WORKLOAD, tokens: -1 }) }),
  'workload.positive': () => engine.overlap({ workload: JSON.stringify({ ...WORKLOAD, gpu_tflops: 0 }) }),
  'workload.nodes_per_token': () => engine.overlap({ workload: JSON.stringify({ ...WORKLOAD, nodes_per_token: 9 }) }),
  // The Chunk tab's own fields and any document's size and shape.
  'chunk.ratio': () => engine.overlap({ ratio: '1:0' }),
  'chunk.ratio_range': () => engine.overlap({ ratio: '1:1e7' }),
  'chunk.workload_replaces': () => engine.overlap({ ppComm: 1, workload: '{}' }),
  'chunk.forward_backward_together': () => engine.overlap({ forward: DIRECT.forward }),
  'chunk.sms_need_comm': () => engine.overlap({ ...DIRECT, totalSms: 100 }),
  'document.too_deep': () => engine.overlap({ workload: '['.repeat(33) + ']'.repeat(33) }),
  'document.too_large': () => course.plan(' '.repeat(2 ** 20 + 1), 'en'),
};
function refusedWording(key, call) {
  try {
    call();
  } catch (e) {
    if (e?.name !== 'PipesimError') throw e;
    assert.equal(e.wording?.key, key, `${key}: ${e.message}`);
    return e;
  }
  assert.fail(`${key}: not refused`);
}

for (const lang of ['pt-BR', 'zh-CN']) {
  test(`the planner's input and the workload's fields are refused in ${lang}, none left in English`, async () => {
    await setLang(lang, { updateDocument: false });
    const seen = {};
    for (const [key, call] of Object.entries(COURSE_REFUSED)) {
      const e = refusedWording(key, call);
      const text = wordRefusal(e.message, e.wording);
      assert.doesNotMatch(text, ENGLISH, `${key}: ${text}`);
      seen[key] = text;
    }
    if (lang === 'pt-BR') {
      assert.equal(seen['plan.range_whole'], 'entrada do planejador: model.pp deve ser um número inteiro de 1 a 256, recebeu "four"');
      assert.equal(seen['workload.positive'], "o campo de carga de trabalho 'gpu_tflops' deve ser um número > 0, recebeu 0");
      assert.equal(seen['chunk.workload_replaces'], 'workload substitui forward, backward e ppComm: informe um ou outro');
      assert.equal(seen['document.too_large'], 'a entrada do planejador pode ter no máximo 1024 KiB (recebeu 1025 KiB)');
    } else {
      assert.equal(seen['plan.gpus_multiple_of_pp'], '规划器输入：cluster.gpus（8）必须是 model.pp（3）的整数倍');
      assert.equal(seen['workload.whole'], "工作负载字段 'tokens' 必须是 >= 1 的整数，收到 -1");
      assert.equal(seen['chunk.ratio_range'], "ratio 必须介于 1:1000000 与 1000000:1 之间，收到 '1:1e7'");
      assert.equal(seen['document.too_deep'], '工作负载的数组和对象嵌套超过 32 层，多于 pipesim 读取的任何文档');
    }
    await setLang('en', { updateDocument: false });
  });
}

test('an English page shows the planner\'s and the workload\'s own refusals', async () => {
  await setLang('en', { updateDocument: false });
  const e = refusedWording('plan.range_whole', COURSE_REFUSED['plan.range_whole']);
  assert.equal(wordRefusal(e.message, e.wording), 'plan input: model.pp must be a whole number from 1 to 256, got "four"');
});

test('an array or an object quoted as the value refused is worded in the page\'s language', async () => {
  const e = refusedWording('plan.range_whole', () => course.plan(plannerInput((i) => (i.model.pp = [4])), 'en'));
  assert.match(e.message, /got an array$/);
  await setLang('pt-BR', { updateDocument: false });
  assert.equal(wordRefusal(e.message, e.wording), 'entrada do planejador: model.pp deve ser um número inteiro de 1 a 256, recebeu um array');
  await setLang('zh-CN', { updateDocument: false });
  assert.equal(wordRefusal(e.message, e.wording), '规划器输入：model.pp 必须是 1 到 256 的整数，收到一个数组');
  await setLang('en', { updateDocument: false });
});
