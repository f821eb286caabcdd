// Hostile input through every binding the page calls, asked of the built modules: every refusal that
// comes back is a PipesimError whose wording key web/src/i18n/refusals.ts words in pt-BR and zh-CN,
// with no English left and no placeholder unfilled. The table names the rule each input breaks, so a
// refusal that loses its key (or changes rule) fails by name; refusal_sites.test.mjs checks the
// sources for the sites no input here reaches.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadWebModule } from './load.mjs';
import { loadCourse, loadEngine, loadTools } from '../wasm/engine.mjs';
import { ENGLISH } from './fixtures/refused_links.mjs';

const { setLang, wordRefusal } = await loadWebModule('../../tests/web/fixtures/refusal_wording');
const { refusalTemplate } = await loadWebModule('i18n/refusals');
const engine = await loadEngine();
const course = await loadCourse();
// Exports and profiler traces are the tools module's calls, as on the page.
const tools = await loadTools();

const RUN = { schedule: '1f1b', ranks: 4, microBatches: 8 };
const run = (extra) => ({ ...RUN, ...extra });
const DIRECT = { forward: 'attn=1,dispatch=1,mlp=1,combine=1', backward: 'combine=1,mlp_b=1,mlp_w=1,dispatch=1,attn_b=1,attn_w=1' };
const SMALL_DENSE = readFileSync(fileURLToPath(new URL('../../core/data/plan_examples/small-dense.json', import.meta.url)), 'utf8');
const MOE_ONE_NODE = readFileSync(fileURLToPath(new URL('../../core/data/plan_examples/moe-one-node-ep.json', import.meta.url)), 'utf8');
const plannerInput = (change) => {
  const input = JSON.parse(SMALL_DENSE);
  change(input);
  return JSON.stringify(input);
};

/** [the rule's key, a call that breaks it] for each binding and field the page passes on. */
const HOSTILE = [
  // Per-stage costs and rank speeds (the Timeline's stage cost table).
  ['stage_cost.syntax', () => engine.simulate(run({ stageCost: ['F=1'] }))],
  ['stage_cost.assignment', () => engine.simulate(run({ stageCost: ['0:X=1'] }))],
  ['stage_cost.twice', () => engine.simulate(run({ stageCost: ['0:F=1,F=2'] }))],
  ['stage_cost.not_number', () => engine.simulate(run({ stageCost: ['0:F=abc'] }))],
  ['stage_cost.no_cost', () => engine.simulate(run({ stageCost: ['0:'] }))],
  ['stage_cost.stage_range', () => engine.simulate(run({ stageCost: ['9:F=1'] }))],
  ['cost.w_exceeds_b', () => engine.simulate(run({ stageCost: ['1:W=9'] }))],
  ['stage_cost.model_stages', () => engine.simulate(run({ modelStages: -1 }))],
  ['number.whole_range', () => engine.simulate(run({ stageCost: ['a:F=1'] }))],
  ['rank_speed.syntax', () => engine.simulate(run({ rankSpeed: ['fast'] }))],
  ['rank_speed.factor', () => engine.simulate(run({ rankSpeed: ['0:0'] }))],
  ['rank_speed.rank_range', () => engine.simulate(run({ rankSpeed: ['9:1'] }))],
  ['arg.string_array', () => engine.simulate(run({ stageCost: 5 }))],
  ['arg.string', () => engine.simulate(run({ stageCost: [5] }))],
  // The cost text and the request itself.
  ['cost.not_number', () => engine.simulate(run({ cost: 'F=abc' }))],
  ['cost.assignment', () => engine.simulate(run({ cost: 'F' }))],
  ['cost.twice', () => engine.simulate(run({ cost: 'F=1,F=2' }))],
  ['cost.unknown', () => engine.simulate(run({ cost: 'X=1' }))],
  ['cost.finite', () => engine.costBounds('a', 1)],
  ['request.not_object', () => engine.simulate(5)],
  ['arg.string', () => engine.simulate(run({ schedule: 5 }))],
  ['size.field', () => engine.acceptedValues(RUN, 'nope', 8)],
  // A pasted custom schedule (the Import tab), and the reference timing's words.
  ['custom.action_syntax', () => engine.simulate({ schedule: 'custom', customSchedule: '0F0,0B0\n2X1' })],
  ['custom.stage_two_ranks', () => engine.simulate({ schedule: 'custom', customSchedule: '0F0,1F0,1B0,0B0\n1F1\n' })],
  ['custom.unknown_op', () => engine.simulate({ schedule: 'custom', customSchedule: '{"micro_batches": 1, "per_rank": [{"ops": [{"op": "X"}]}]}' })],
  ['trace_import.not_ours', () => engine.simulate({ schedule: 'custom', customSchedule: '{"traceEvents": []}' })],
  ['op.backward_before_forward', () => engine.simulate({ schedule: 'custom', customSchedule: '0B0,0F0\n' })],
  ['missing.weight', () => engine.simulate({ schedule: 'custom', customSchedule: '0F0,0I0\n' })],
  ['deadlock.cycle', () => engine.simulate({ schedule: 'custom', customSchedule: '0F0,0B0,0F1,0B1\n1F1,1B1,1F0,1B0' })],
  ['timing.unknown', () => engine.simulate(run({ timing: 'fast' }))],
  ['sends.only_reference', () => engine.simulate(run({ sends: 'eager' }))],
  // Sweeps (Charts) and exports.
  ['sweep.axis', () => engine.sweep(RUN, 'nope', [4])],
  ['sweep.values', () => engine.sweep(RUN, 'ranks', 'x')],
  ['sweep.too_many_points', () => engine.sweep(RUN, 'ranks', new Array(100000).fill(4))],
  ['export.unknown_format', () => tools.exportText(RUN, 'nope', 1)],
  // The Chunk tab.
  ['request.overlap_not_object', () => engine.overlap(5)],
  ['component.assignment', () => engine.overlap({ ...DIRECT, forward: 'attn,dispatch=1,mlp=1,combine=1' })],
  ['component.unknown', () => engine.overlap({ ...DIRECT, forward: 'attn=1,dispatch=1,mlp=1,combine=1,foo=1' })],
  ['component.twice', () => engine.overlap({ ...DIRECT, forward: 'attn=1,attn=2,dispatch=1,mlp=1,combine=1' })],
  ['component.number', () => engine.overlap({ ...DIRECT, backward: 'combine=1,mlp_b=-1,mlp_w=1,dispatch=1,attn_b=1,attn_w=1' })],
  ['component.missing', () => engine.overlap({ ...DIRECT, forward: 'attn=1,dispatch=1,mlp=1' })],
  ['ratio.no_all_to_all', () => engine.overlap({ forward: 'attn=1,dispatch=0,mlp=1,combine=0', backward: 'combine=0,mlp_b=1,mlp_w=1,dispatch=0,attn_b=1,attn_w=1', ratio: '1:1' })],
  ['chunk.no_work', () => engine.overlap({ forward: 'attn=0,dispatch=0,mlp=0,combine=0', backward: 'combine=0,mlp_b=0,mlp_w=0,dispatch=0,attn_b=0,attn_w=0' })],
  ['language.unknown', () => engine.overlap({ language: 'fr' })],
  ['arg.number', () => engine.overlap({ ppComm: 'x' })],
  // The planner, the plan search and the measured pipeline.
  ['plan.string', () => course.plan(plannerInput((i) => (i.language = 5)), 'en')],
  ['language.unknown', () => course.plan(plannerInput((i) => (i.language = 'fr')), 'en')],
  ['search.not_begun', () => course.planSearchStep(1)],
  ['measured.not_array', () => tools.measuredPipeline('x')],
  ['measured.too_many_traces', () => tools.measuredPipeline(new Array(engine.limits().maxRanks + 1).fill('{}'))],
  ['profile_trace.top_array', () => tools.measuredPipeline(['[]'])],
  ['profile_trace.event_time', () => tools.measuredPipeline(['{"schemaVersion": 1, "traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1}]}'])],
  ['measured.no_pipelining_ops', () => tools.measuredPipeline(['{"schemaVersion": 1, "traceEvents": [{"ph": "X", "cat": "user_annotation", "name": "forward", "ts": 0, "dur": 10}]}'])],
  ['quiz.set', () => course.quizQuestions({ set: 'nope' })],
  ['lesson.exercise', () => course.lesson({ exercise: 9 })],
  // The Memory tab's runs on a model at the page's ranks (small-dense: 8 GPUs, model.pp 4).
  ['model.ranks_divide_gpus', () => course.simulateModel({ schedule: '1f1b', model: SMALL_DENSE, ranks: 3 })],
  ['model.ranks_range', () => course.simulateModel({ schedule: '1f1b', model: SMALL_DENSE, ranks: 300 })],
  ['model.ranks_split_ep', () => course.simulateModel({ schedule: '1f1b', model: MOE_ONE_NODE, ranks: 16, microBatches: 32 })],
  ['size.whole_number', () => course.simulateModel({ schedule: '1f1b', model: SMALL_DENSE, ranks: [4] })],
];

/** The refusal `call` throws: a PipesimError, or the test fails. */
function refusalOf(call, key) {
  try {
    call();
  } catch (e) {
    if (e?.name !== 'PipesimError') throw e;
    return e;
  }
  assert.fail(`${key}: not refused`);
}

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
      const e = refusalOf(call, key);
      if (!refusalTemplate(language, e.wording?.key ?? '')) problems.push(`${key}: ${e.wording?.key} has no ${language} sentence`);
      const text = wordRefusal(e.message, e.wording);
      if (ENGLISH.test(text) || /\{\w+\}/.test(text.replace(/\{(schedule|ratio|schedule, model)\b[^}]*\}/g, ''))) problems.push(`${key}: ${text}`);
    }
    await setLang('en', { updateDocument: false });
    assert.deepEqual(problems, []);
  });
}

test('a refusal inside one stage or trace names that stage or trace in the page\'s language', async () => {
  const stage = refusalOf(() => engine.simulate(run({ stageCost: ['1:W=9'] })), 'cost.w_exceeds_b');
  assert.match(stage.message, /^stage 1: cost W \(9\) must not exceed B/);
  await setLang('pt-BR', { updateDocument: false });
  assert.match(wordRefusal(stage.message, stage.wording), /^estágio 1: o custo W \(9\) não pode passar de B \(2\)/);
  await setLang('zh-CN', { updateDocument: false });
  assert.match(wordRefusal(stage.message, stage.wording), /^阶段 1：成本 W（9）不能超过 B（2）/);
  await setLang('en', { updateDocument: false });
  assert.equal(wordRefusal(stage.message, stage.wording), stage.message);
  // The second of two traces is no profiler trace: the refusal says which trace, in each language.
  const trace = refusalOf(() => tools.measuredPipeline(['{"schemaVersion": 1, "traceEvents": []}', '[]']), 'profile_trace.top_array');
  assert.match(trace.message, /^trace 2: not a profiler trace: the JSON is an array/);
  await setLang('pt-BR', { updateDocument: false });
  assert.match(wordRefusal(trace.message, trace.wording), /^trace 2: não é um trace do profiler: o JSON é um array/);
  await setLang('zh-CN', { updateDocument: false });
  assert.match(wordRefusal(trace.message, trace.wording), /^trace 2：不是 profiler trace：该 JSON 是数组/);
  await setLang('en', { updateDocument: false });
});

test('the new refusals keep their English messages, which the CLI prints', () => {
  const message = (call) => refusalOf(call, '').message;
  assert.equal(message(() => engine.simulate(run({ stageCost: ['0:F=abc'] }))), "--stage-cost cost F must be a number, got 'abc'");
  assert.equal(message(() => course.plan(plannerInput((i) => (i.language = 5)), 'en')), 'plan input: language must be a string like "pt-BR", got 5');
  assert.equal(message(() => course.plan(plannerInput((i) => (i.language = 'fr')), 'en')), "plan input: unknown language 'fr'; languages are en, pt-BR, zh-CN");
});
