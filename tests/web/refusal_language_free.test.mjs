// No English inside a refusal's params: a wording's params go into the pt-BR and zh-CN sentence as
// they are, so every one the sentence shows must be language-free by its kind (a number, a name or
// key, an op, the user's own text; fixtures/language_free.mjs), and what is left is the catalogue's
// own text with no English word. zh-CN's sentences are also spaced as Chinese typography and the
// rest of the catalogue space them. Walked over every hostile input of the bindings' table, every
// refused link, and the inputs the Catch2 wording tests refuse (custom schedules, traces, JSON that
// does not parse, checked fields at their place).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';
import { loadCourse, loadEngine, loadTools } from '../wasm/engine.mjs';
import { REFUSED } from './fixtures/refused_links.mjs';
import { hostileBindings, refusalOf } from './fixtures/hostile_bindings.mjs';
import { wordingProblems, zhSpacingProblems } from './fixtures/language_free.mjs';

const { setLang, wordRefusal, readState, requestOf, moduleRequest } = await loadWebModule('../../tests/web/fixtures/refusal_wording');
const { REFUSAL_KEYS, refusalTemplate } = await loadWebModule('i18n/refusals');
const engine = await loadEngine();
const course = await loadCourse();
const tools = await loadTools();
const traits = new Map(engine.schedules().map((s) => [s.name, s]));

const custom = (text) => () => engine.simulate({ schedule: 'custom', customSchedule: text });
const OURS = '"otherData": {"generator": "pipesim", "ranks": 2, "micro_batches": 2, "stages": 2}';
/** The inputs the Catch2 wording tests refuse (tests/test_custom.cpp, test_export.cpp), through the module. */
const IMPORTS = [
  ['custom.json_parse', custom('{"micro_batches": 1,')],
  ['custom.json_parse', custom('{\n  "per_rank": trux}')],
  ['custom.json_parse', custom('{"a": -}')],
  ['custom.json_parse', custom('{"a": "x')],
  ['custom.json_parse', custom('{"a" 1}')],
  ['custom.json_parse', custom('{} {}')],
  ['custom.json_parse', custom('{\n"micro_batches": 1e400}')],
  ['field.missing', custom('{"micro_batches": 1, "per_rank": [{"ops": [{"op": "F", "stage": 0}]}]}')],
  ['field.missing', custom('{"per_rank": []}')],
  ['field.whole_range', custom('{"micro_batches": 1, "per_rank": [{"ops": [{"op": "FB", "f_mb": 0, "f_stage": 0, "b_mb": -1, "b_stage": 0}]}]}')],
  ['field.whole_range', custom('{"micro_batches": 1, "directions": 3, "per_rank": []}')],
  ['field.missing', custom('{"traceEvents": [], "otherData": {"generator": "pipesim"}}')],
  ['field.whole_range', custom('{"traceEvents": [], "otherData": {"generator": "pipesim", "ranks": 0}}')],
  ['trace_import.pid', custom(`{"traceEvents": [{"ph": "X", "cat": "compute", "pid": 9, "ts": 0, "args": {}}], ${OURS}}`)],
  ['trace_import.kind', custom(`{"traceEvents": [{"ph": "X", "cat": "compute", "pid": 1, "ts": 0, "args": {"mb": 0}}], ${OURS}}`)],
  ['custom.phase_mismatch', custom(`{"micro_batches": 1, "per_rank": [
    {"ops": [{"op": "F", "mb": 0, "phase": 99, "stage": 0}, {"op": "B", "mb": 0, "phase": 0, "stage": 0}]},
    {"ops": [{"op": "F", "mb": 0, "phase": 0, "stage": 1}, {"op": "B", "mb": 0, "phase": 0, "stage": 1}]}]}`)],
  ['custom.stage_unowned_direction', custom('{"directions": 2, "micro_batches": 2, "stages": 2, "per_rank": [{"ops": [{"op": "F", "mb": 0, "phase": 0, "stage": 0}]}]}')],
  ['custom.ranks_mismatch', custom('{"micro_batches": 1, "ranks": 2, "per_rank": [{"ops": []}]}')],
  ['custom.ops_missing', custom('{"micro_batches": 1, "per_rank": [{"rank": 0}]}')],
  ['op.mb_range', custom('{"micro_batches": 1, "per_rank": [{"ops": [{"op": "F", "mb": 1, "stage": 0}, {"op": "B", "mb": 1, "stage": 0}]}]}')],
  ['custom.stage_unowned', custom('0F0,0B0\n2F0,2B0\n')],
  ['custom.overlap_syntax', custom('(0F0;0F1)OVERLAP_F_B\n')],
  ['missing.forward', custom('0F0,0B0,0F2,0B2\n')],
];

/** The page's refused links (fixtures/refused_links.mjs), asked as the page asks them. */
const LINKS = Object.entries(REFUSED).map(([key, query]) => [key, () => {
  const state = readState(`?${query}`);
  engine.simulate(moduleRequest(requestOf(state, state.schedule, traits.get(state.schedule))));
}]);

const ALL = [...hostileBindings({ engine, course, tools }), ...IMPORTS, ...LINKS];

test('the imports the Catch2 wording tests refuse are refused by their rules here too', () => {
  assert.deepEqual(IMPORTS.map(([key, call]) => refusalOf(key, call).wording?.key), IMPORTS.map(([key]) => key));
});

for (const language of ['pt-BR', 'zh-CN']) {
  test(`no refusal worded in ${language} shows English from its params or its sentence${language === 'zh-CN' ? ', and each is spaced as Chinese text' : ''}`, async () => {
    await setLang(language, { updateDocument: false });
    const problems = [];
    for (const [key, call] of ALL) {
      const e = refusalOf(key, call);
      const text = wordRefusal(e.message, e.wording);
      if (text === e.message) problems.push(`${key}: left in English: ${text}`);
      for (const problem of wordingProblems(language, e.wording, text)) problems.push(`${key}: ${problem}: ${text}`);
    }
    await setLang('en', { updateDocument: false });
    assert.deepEqual(problems, []);
  });
}

test('every zh-CN sentence of the catalogue is spaced as Chinese text between its placeholders', () => {
  const problems = [];
  for (const key of REFUSAL_KEYS) {
    const template = refusalTemplate('zh-CN', key) ?? '';
    for (const piece of template.split(/\{\w+\}/)) for (const problem of zhSpacingProblems(piece)) problems.push(`${key}: ${problem}: ${template}`);
  }
  assert.deepEqual(problems, []);
});

test('a deadlock\'s step is spaced in zh-CN whether it names its direction or not', async () => {
  await setLang('zh-CN', { updateDocument: false });
  const link = (step) => wordRefusal('', { key: 'deadlock.comm_cycle', params: { comm_cycle: `0|2 B0|${step}|1` } });
  assert.equal(link('1SEND_B0 1'), '参考通信中的死锁：rank 0 在操作 2（B0）之前等待方向 1 的 1SEND_B0（rank 1 尚未发起其一侧）；此循环中没有 rank 能继续');
  assert.equal(link('1SEND_B0'), '参考通信中的死锁：rank 0 在操作 2（B0）之前等待 1SEND_B0（rank 1 尚未发起其一侧）；此循环中没有 rank 能继续');
  await setLang('en', { updateDocument: false });
});

test('the checks catch what used to leak: nlohmann\'s English, an English place, a space inside Chinese text', () => {
  const leak = (params, text) => wordingProblems('zh-CN', { key: 'k', params }, text);
  const english = "[json.exception.parse_error.101] parse error at line 1, column 21: syntax error while parsing object key - unexpected end of input";
  assert.notDeepEqual(leak({ detail: english }, `调度 JSON 无法解析：${english}`), []);
  assert.notDeepEqual(leak({ name: "rank 0, op 0: 'mb'" }, "缺少 rank 0, op 0: 'mb'"), []);
  assert.notDeepEqual(leak({ name: 'pipesim trace: otherData.ranks' }, '缺少 pipesim trace: otherData.ranks'), []);
  assert.notDeepEqual(leak({}, 'rank 0 等待 方向 1 的 1SEND_B0'), []);
  assert.notDeepEqual(leak({}, '在操作 2之前'), []);
  // Language-free kinds pass: numbers, names, keys, ops, lists of them, and the user's own text.
  assert.deepEqual(leak({ name: 'otherData.ranks', op_text: 'FB(F0,B1)', max: '1024 KiB', known: 'a, b, c', value: 'any thing' },
    "缺少 otherData.ranks：FB(F0,B1)，1024 KiB，a, b, c，收到 'any thing'"), []);
});

test('JSON that does not parse is worded with its line, column and reason in each language', async () => {
  const e = refusalOf('custom.json_parse', custom('{\n  "per_rank": trux}'));
  assert.match(e.message, /^schedule JSON does not parse: .*line 2, column 18/);
  await setLang('pt-BR', { updateDocument: false });
  assert.equal(wordRefusal(e.message, e.wording), 'o JSON do escalonamento não é válido (linha 2, coluna 18): palavra inválida (só valem true, false e null)');
  await setLang('zh-CN', { updateDocument: false });
  assert.equal(wordRefusal(e.message, e.wording), '调度 JSON 无法解析（第 2 行，第 18 列）：无效的字面量（只能是 true、false 或 null）');
  const field = refusalOf('field.missing', custom('{"micro_batches": 1, "per_rank": [{"ops": [{"op": "F", "stage": 0}]}]}'));
  assert.equal(wordRefusal(field.message, field.wording), 'rank 0，操作 0：缺少 mb');
  await setLang('pt-BR', { updateDocument: false });
  assert.equal(wordRefusal(field.message, field.wording), 'rank 0, op 0: falta mb');
  await setLang('en', { updateDocument: false });
});
