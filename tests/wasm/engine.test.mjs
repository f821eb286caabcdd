// The WebAssembly module answers exactly as the native CLI does: same JSON, same error messages,
// and it stays usable after refusing a request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { CLI, cliLine, loadCourse, loadEngine, loadTools, refusal } from './engine.mjs';

const engine = await loadEngine();
const course = await loadCourse();

function cli(args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8' });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

function cliArgs(req) {
  const args = ['simulate', '--schedule', req.schedule, '--ranks', String(req.ranks), '--micro-batches', String(req.microBatches)];
  if (req.virtualStages) args.push('--virtual-stages', String(req.virtualStages));
  if (req.cost) args.push('--cost', req.cost);
  return args;
}

const configurations = [
  { schedule: 'dualpipe', ranks: 8, microBatches: 20, cost: 'F=1,B=2,W=1,FB=3' },
  { schedule: 'dualpipe', ranks: 4, microBatches: 8 },
  { schedule: 'dualpipe', ranks: 8, microBatches: 20, cost: 'F=1,B=2,W=1,FB=2.5' },
  { schedule: 'dualpipev', ranks: 4, microBatches: 10 },
  { schedule: 'dualpipev', ranks: 3, microBatches: 9, cost: 'F=1.5,B=3,W=1,comm=0.25' },
  { schedule: '1f1b', ranks: 4, microBatches: 8, cost: 'F=1,B=2,W=1' },
  { schedule: 'gpipe', ranks: 4, microBatches: 8, cost: 'F=1,B=2,W=1,comm=0.5' },
  { schedule: 'zb-h1', ranks: 8, microBatches: 24 },
  { schedule: 'zb-h2', ranks: 4, microBatches: 8 },
];

for (const req of configurations) {
  test(`wasm JSON equals the CLI's for ${JSON.stringify(req)}`, () => {
    const native = cli([...cliArgs(req), '--format', 'json']);
    assert.equal(native.status, 0, native.err);
    const wasm = engine.simulateJson(req, 'json');
    assert.deepEqual(JSON.parse(wasm.json), JSON.parse(native.out));
  });
}

test('typed-array columns carry the same ops and times as the JSON', () => {
  const req = { schedule: 'dualpipe', ranks: 8, microBatches: 20, cost: 'F=1,B=2,W=1,FB=3' };
  const r = engine.simulate(req);
  const json = JSON.parse(engine.simulateJson(req, 'json').json);
  assert.equal(r.summary.makespan, 66);
  assert.ok(r.ops.start instanceof Float64Array && r.ops.kind instanceof Uint8Array);
  const kinds = ['F', 'B', 'I', 'W', 'FB'];
  let i = 0;
  for (const rank of json.per_rank) {
    assert.equal(r.rankBegin[rank.rank], i);
    for (const op of rank.ops) {
      assert.equal(kinds[r.ops.kind[i]], op.op);
      assert.equal(r.ops.rank[i], rank.rank);
      assert.equal(r.ops.start[i], op.start);
      assert.equal(r.ops.end[i], op.end);
      assert.equal(r.ops.mb[i], op.op === 'FB' ? op.f_mb : op.mb);
      if (op.op === 'FB') assert.equal(r.ops.bMb[i], op.b_mb);
      i++;
    }
  }
  assert.equal(i, r.ops.count);
  assert.equal(r.activations.length, 8);
  assert.equal(Math.max(...r.activations[3].alive), 9);
});

const refusals = [
  [{ schedule: 'dualpipe', ranks: 3, microBatches: 12 }, ['--schedule', 'dualpipe', '--ranks', '3', '--micro-batches', '12']],
  [{ schedule: 'dualpipe', ranks: 8, microBatches: 14 }, ['--schedule', 'dualpipe', '--ranks', '8', '--micro-batches', '14']],
  [{ schedule: 'nope', ranks: 4, microBatches: 8 }, ['--schedule', 'nope', '--ranks', '4', '--micro-batches', '8']],
  [{ schedule: '1f1b', ranks: 4, microBatches: 8, cost: 'W=5' }, ['--schedule', '1f1b', '--ranks', '4', '--micro-batches', '8', '--cost', 'W=5']],
  [{ schedule: '1f1b', ranks: 4, microBatches: 8, cost: 'F=1,B=2,FB=9' }, ['--schedule', '1f1b', '--ranks', '4', '--micro-batches', '8', '--cost', 'F=1,B=2,FB=9']],
];

for (const [req, args] of refusals) {
  test(`a refused request gives the CLI's message: ${JSON.stringify(req)}`, () => {
    const native = cli(['simulate', ...args]);
    assert.equal(native.status, 2);
    const wasm = refusal(() => engine.simulate(req));
    assert.equal(cliLine(wasm), native.err);
    // ... and the module keeps working afterwards.
    assert.equal(engine.simulate({ schedule: '1f1b', ranks: 4, microBatches: 8 }).summary.makespan, 33);
  });
}

test('malformed requests from JavaScript are refused with a clear message, not a crash', () => {
  assert.match(refusal(() => engine.simulate(null)).message, /request must be an object/);
  assert.equal(refusal(() => engine.simulate({ ranks: 'abc' })).message, 'ranks must be a whole number, got abc');
  assert.equal(refusal(() => engine.simulate({ ranks: 2.5 })).message, 'ranks must be a whole number, got 2.5');
  assert.equal(refusal(() => engine.simulate({ cost: 42 })).message, 'cost must be a string');
  assert.equal(engine.simulate({}).summary.makespan, 66); // defaults: Fig. 5
});

test('a sweep gives one point per value and marks the refused ones', () => {
  const s = engine.sweep({ schedule: 'dualpipe', ranks: 8 }, 'micro_batches', [16, 17, 18, 20]);
  assert.deepEqual(Array.from(s.valid), [1, 0, 1, 1]);
  assert.deepEqual(Array.from(s.makespan).map((v) => (Number.isNaN(v) ? null : v)), [54, null, 60, 66]);
  assert.match(s.errors[1], /even number of micro-batches/);
  assert.equal(refusal(() => engine.sweep({}, 'sideways', [1])).message, "sweep axis must be micro_batches or ranks, got 'sideways'");
});

test('the schedule list matches the CLI', () => {
  const native = cli(['list', '--format', 'json']);
  assert.deepEqual(engine.schedules(), JSON.parse(native.out));
});

test('every schedule entry carries its texts in every language, its colours and its defaults', () => {
  for (const entry of engine.schedules()) {
    assert.deepEqual(Object.keys(entry.texts).sort(), ['en', 'pt-BR', 'zh-CN']);
    for (const texts of Object.values(entry.texts))
      for (const key of ['title', 'summary', 'constraints', 'caption']) assert.ok(texts[key].length > 0, `${entry.name} ${key}`);
    assert.equal(entry.title, entry.texts.en.title);
    assert.match(entry.colour.light, /^#[0-9a-f]{6}$/);
    assert.match(entry.colour.dark, /^#[0-9a-f]{6}$/);
    if (!entry.takes_text) {
      const { ranks, micro_batches: microBatches, virtual_stages: virtualStages } = entry.defaults;
      const run = engine.simulate({ schedule: entry.name, ranks, microBatches, virtualStages });
      assert.equal(run.summary.directions, entry.two_way ? 2 : 1, entry.name);
    }
  }
});

test('the presets match the CLI and run as they are', () => {
  const native = cli(['presets', '--format', 'json']);
  const presets = engine.presets();
  assert.deepEqual(presets, JSON.parse(native.out));
  assert.equal(presets[0].id, 'fig5');
  assert.equal(presets[0].texts['zh-CN'].name, 'DeepSeek-V3 图 5：DualPipe，8 个 rank，20 个微批次');
  for (const p of presets) {
    const run = engine.simulate({ schedule: p.schedule, ranks: p.ranks, microBatches: p.micro_batches, virtualStages: p.virtual_stages, cost: p.cost });
    assert.equal(run.summary.ranks, p.ranks);
  }
});

test('the chunk model answers as `pipesim overlap --format json` does', () => {
  const cases = [
    [{ ratio: '1:1' }, ['--ratio', '1:1']],
    [{ commSms: 10 }, ['--comm-sms', '10']],
    [
      { forward: 'attn=2,dispatch=1,mlp=2,combine=1', backward: 'combine=1,mlp_b=2,mlp_w=1,dispatch=1,attn_b=2,attn_w=1', ppComm: 0.5 },
      ['--forward', 'attn=2,dispatch=1,mlp=2,combine=1', '--backward', 'combine=1,mlp_b=2,mlp_w=1,dispatch=1,attn_b=2,attn_w=1', '--pp-comm', '0.5'],
    ],
  ];
  for (const [request, args] of cases) {
    const native = cli(['overlap', ...args, '--format', 'json']);
    assert.equal(native.status, 0, native.err);
    assert.deepEqual(engine.overlap(request), JSON.parse(native.out));
  }
  const refused = cli(['overlap', '--comm-sms', '132']);
  assert.equal(cliLine(refusal(() => engine.overlap({ commSms: 132 }))), refused.err);
  // A refusal names the fields as the caller wrote them: the request's keys here, options in the CLI.
  const forwardOnly = { forward: 'attn=2,dispatch=1,mlp=2,combine=1' };
  assert.equal(refusal(() => engine.overlap(forwardOnly)).message,
    'forward and backward go together: give both, or neither to use a workload');
  assert.equal(refusal(() => engine.overlap({ ...forwardOnly, workload: '{}' })).message,
    'workload replaces forward, backward and ppComm: give one or the other');
  const direct = { ...forwardOnly, backward: 'combine=1,mlp_b=2,mlp_w=1,dispatch=1,attn_b=2,attn_w=1' };
  assert.equal(refusal(() => engine.overlap({ ...direct, totalSms: 100 })).message,
    'totalSms and saturationSms need commSms, the SMs given to communication');
  assert.equal(refusal(() => engine.overlap({ ratio: '1:x' })).message,
    "ratio must be compute:comm like 1:1 or a number > 0, got '1:x'");
  assert.equal(cli(['overlap', '--ratio', '1:x']).err,
    "pipesim: error[bad_value]: --ratio must be compute:comm like 1:1 or a number > 0, got '1:x'\n");
  const workload = engine.defaultWorkload();
  assert.equal(workload.comm_sms, 20);
  assert.deepEqual(engine.overlap({ workload: JSON.stringify(workload) }), engine.overlap({}));
});

test('exports, the course quiz, lessons and the planner answer as the CLI does', () => {
  const req = { schedule: '1f1b', ranks: 4, microBatches: 8, cost: 'F=1,B=2,W=1' };
  const args = ['simulate', '--schedule', '1f1b', '--ranks', '4', '--micro-batches', '8', '--cost', 'F=1,B=2,W=1', '--format'];
  for (const format of ['chrome-trace', 'csv', 'svg', 'actions', 'json']) {
    const native = cli([...args, format]);
    assert.equal(native.status, 0, native.err);
    assert.equal(engine.exportText(req, format, 0).text, native.out, format);
  }
  assert.match(refusal(() => engine.exportText(req, 'pdf', 0)).message, /export format must be one of/);
  for (const lang of ['en', 'pt-BR', 'zh-CN']) {
    const quiz = cli(['quiz', '--course', '--lang', lang]);
    assert.deepEqual(course.courseQuiz(lang), JSON.parse(quiz.out), lang);
  }
  const lesson = cli(['lesson', '--exercise', '1', '--format', 'json', '--cost', 'F=1,B=2,W=1,FB=2.5']);
  assert.deepEqual(course.lesson({ exercise: 1, cost: 'F=1,B=2,W=1,FB=2.5' }), JSON.parse(lesson.out));
  const example = new URL('../../core/data/plan_examples/deepseek-v3.json', import.meta.url);
  for (const lang of ['en', 'zh-CN']) {
    const plan = cli(['plan', '--input', example.pathname, '--format', 'json', '--lang', lang]);
    assert.deepEqual(course.plan(readFileSync(example, 'utf8'), lang), JSON.parse(plan.out));
  }
  assert.match(refusal(() => course.plan('{', 'en')).message, /JSON/);
});

// Values a page may hand over unchecked (NaN, negatives, 2 ** 53, the wrong type) come back as
// a thrown PipesimError in the CLI's words, the option named without its dashes, and the module stays usable.
const asWasm = (err, option) => err.replace(`--${option} `, `${option} `);

test('the engine module carries none of the course, which the page loads apart', () => {
  for (const name of ['courseQuiz', 'lesson', 'plan', 'provideCourseData']) assert.equal(engine[name], undefined, name);
  assert.equal(course.simulate, undefined);
  assert.equal(course.version(), engine.version());
});

test('the course module does not carry the course data: until it is given, the course calls name what is missing', async () => {
  const bare = await loadCourse({ courseData: false });
  for (const [call, file] of [
    [() => bare.courseQuiz('en'), 'quiz_bank'],
    [() => bare.lesson({ exercise: 1 }), 'lesson_text'],
    [() => bare.plan(readFileSync(new URL('../../core/data/plan_examples/deepseek-v3.json', import.meta.url), 'utf8'), 'en'), 'planner_text'],
  ]) {
    const e = refusal(call);
    assert.equal(e.code, 'usage');
    assert.match(e.message, new RegExp(`core/data/${file}\\.json\\) was not provided`));
  }
  assert.match(refusal(() => bare.provideCourseData('quiz', '{}')).message, /unknown course data 'quiz'/);
  bare.provideCourseData('quiz_bank', readFileSync(new URL('../../core/data/quiz_bank.json', import.meta.url), 'utf8'));
  assert.deepEqual(bare.courseQuiz('en'), course.courseQuiz('en'));
});

test('a lesson or planner text the course cannot use is refused when given, and the course keeps answering from the file it held', async () => {
  const texts = await loadCourse();
  const lessonBefore = texts.lesson({ exercise: 3, language: 'pt-BR' });
  const examplePlan = readFileSync(new URL('../../core/data/plan_examples/deepseek-v3.json', import.meta.url), 'utf8');
  const planBefore = texts.plan(examplePlan, 'zh-CN');
  const shipped = JSON.parse(readFileSync(new URL('../../core/data/lesson_text.json', import.meta.url), 'utf8'));
  const withoutQuestion = structuredClone(shipped);
  delete withoutQuestion.exercise_4.question;
  for (const [name, text, why] of [
    ['lesson_text', '[1]', /the top level must be an object/],
    ['lesson_text', '{"version": 1, "common": {}}', /no "exercise_1" section/],
    ['lesson_text', JSON.stringify(withoutQuestion), /exercise 4: /],
    ['planner_text', '{"a": 1}', /its "version" must be 1/],
    ['planner_text', '{"version": 1, "reasons": {}, "counts": {}, "text": {"k": {"en": "x"}}, "json": {}}', /text\.k has no pt-BR text: every text is in every course language/],
  ]) {
    const e = refusal(() => texts.provideCourseData(name, text));
    assert.equal(e.code, 'internal', name);
    assert.match(e.message, new RegExp(`^${name.replace('_', ' ')}: core/data/${name}\\.json is not the course's file: `), name);
    assert.match(e.message, why, name);
  }
  assert.deepEqual(texts.lesson({ exercise: 3, language: 'pt-BR' }), lessonBefore);
  assert.deepEqual(texts.plan(examplePlan, 'zh-CN'), planBefore);
});

test('the modules report the version package.json holds, as `pipesim --version` does', async () => {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  assert.equal(engine.version(), version);
  assert.equal(course.version(), version);
  assert.equal((await loadTools()).version(), version);
  assert.equal(cli(['--version']).out, `pipesim ${version}\n`);
});

test('the chunk derivation and the figure\'s headings are worded in the language asked; its numbers and the rest are the same; an unknown language is refused', () => {
  const request = { commSms: 20, ratio: '1:1' };
  const en = engine.overlap(request);
  const zh = engine.overlap({ ...request, language: 'zh-CN' });
  assert.equal(en.derivation[0].formula, 'L·T·(2·P_a + 2·S·d_a) / X × total/(total-comm)');
  assert.equal(zh.derivation[0].formula, 'L·T·(2·P_a + 2·S·d_a) / X × 总数/(总数-通信)');
  assert.match(zh.derivation[1].worked, /\(按 计算:all-to-all = 1 缩放\)/);
  assert.deepEqual({ ...zh, derivation: null, headings: null }, { ...en, derivation: null, headings: null });
  assert.deepEqual(zh.headings, { forward: '单独的前向 chunk：f', backward: '单独的反向 chunk：b', pair: '重叠的一对：fb',
                                  compute_lane: '计算', comm_lane: '通信' });
  assert.equal(en.headings.pair, 'the pair, overlapped: fb');
  assert.deepEqual(zh.derivation.map((d) => d.value), en.derivation.map((d) => d.value));
  const e = refusal(() => engine.overlap({ language: 'fr' }));
  assert.equal(e.code, 'unknown_name');
  assert.equal(e.field, 'language');
  assert.equal(e.message, "unknown language 'fr'; languages are en, pt-BR, zh-CN");
  assert.deepEqual(engine.overlap({}), engine.overlap({ language: 'en' }), 'the module keeps working');
});

test('sweep refuses values that are not an array, or too many, with a PipesimError', () => {
  const req = { schedule: '1f1b', ranks: 2 };
  for (const values of [undefined, null, 16, '16,18', { length: 2, 0: 16, 1: 18 }, { length: 1e9 }]) {
    assert.match(refusal(() => engine.sweep(req, 'micro_batches', values)).message, /^sweep values must be an array of whole numbers/);
  }
  assert.equal(refusal(() => engine.sweep(req, 'micro_batches', new Array(513).fill(4))).message, 'a sweep takes at most 512 points (got 513)');
  assert.equal(engine.sweep(req, 'micro_batches', new Array(512).fill(4)).value.length, 512);
  assert.equal(refusal(() => engine.sweep(req, 'micro_batches', [4, 'x'])).message, 'sweep value must be a whole number, got x');
});

test('exportText takes 0 as the default scale and refuses what --us-per-unit refuses', () => {
  const req = { schedule: '1f1b', ranks: 4, microBatches: 8, cost: 'F=1,B=2,W=1,comm=0.5' };
  const args = ['simulate', '--schedule', '1f1b', '--ranks', '4', '--micro-batches', '8', '--cost', 'F=1,B=2,W=1,comm=0.5',
    '--format', 'chrome-trace'];
  const byDefault = cli(args);
  assert.equal(engine.exportText(req, 'chrome-trace', 0).text, byDefault.out);
  for (const scale of [0.001, 2.5, 1e9]) {
    assert.equal(engine.exportText(req, 'chrome-trace', scale).text, cli([...args, '--us-per-unit', String(scale)]).out);
  }
  for (const scale of [-1, 0.0005, 2e9, NaN, Infinity]) {
    const native = cli([...args, '--us-per-unit', String(scale)]);
    assert.equal(native.status, 2, String(scale));
    const wasm = refusal(() => engine.exportText(req, 'chrome-trace', scale));
    assert.equal(cliLine(wasm), asWasm(native.err, 'us-per-unit'));
  }
  assert.equal(engine.exportText(req, 'csv', 0).text, cli([...args.slice(0, -1), 'csv']).out);
  assert.equal(engine.simulate({ schedule: '1f1b', ranks: 4, microBatches: 8 }).summary.makespan, 33);
});

test('an argument of the wrong JavaScript type is a PipesimError with a code, not an Embind binding error', () => {
  assert.equal(refusal(() => course.plan(42, 'en')).message, 'plan input must be a string, got a number');
  assert.equal(refusal(() => course.plan('{}', null)).message, 'lang must be a string, got null');
  assert.equal(refusal(() => course.courseQuiz({})).message, 'lang must be a string, got an object');
  assert.equal(refusal(() => engine.exportText({}, 7, 0)).message, 'export format must be a string, got a number');
  assert.equal(refusal(() => engine.sweep({}, ['ranks'], [1])).message, 'sweep axis must be a string, got an array');
  assert.equal(refusal(() => engine.simulateJson({}, undefined)).message, 'detail must be a string, got undefined');
  assert.equal(engine.simulate({ schedule: '1f1b', ranks: 4, microBatches: 8 }).summary.makespan, 33); // still usable
});

test('a refusal is a PipesimError carrying the core error code, an instance of the module\'s class', () => {
  const e = refusal(() => engine.simulate({ schedule: '1f1b', ranks: 5000, microBatches: 8 }));
  assert.ok(e instanceof engine.PipesimError && e instanceof Error);
  assert.equal(e.code, 'limit_exceeded');
  assert.equal(e.message, 'ranks must be at most 4096, the limit of one run (got 5000)');
  assert.equal(refusal(() => engine.simulate({ schedule: 'nope' })).code, 'unknown_name');
  assert.equal(refusal(() => engine.simulate({ schedule: 'dualpipe', ranks: 3, microBatches: 12 })).code, 'schedule_rule');
  assert.equal(refusal(() => engine.simulate({ schedule: 'custom', customSchedule: '{' })).code, 'bad_import');
  const deadlock = refusal(() => engine.simulate({ schedule: 'custom', customSchedule: '0F0,0B0,0F1,0B1\n1F1,1B1,1F0,1B0' }));
  assert.equal(deadlock.code, 'deadlock');
  assert.equal(refusal(() => engine.simulate(null)).code, 'usage');
});

test('a run over the op limit is refused before the module allocates it, and the module stays usable', () => {
  const e = refusal(() => engine.simulate({ schedule: 'gpipe', ranks: 4096, microBatches: 1048576 }));
  assert.equal(e.code, 'limit_exceeded');
  assert.match(e.message, /^gpipe at 4096 ranks x 1048576 micro-batches would have 8589934592 ops, over the 6291456 ops one run may have$/);
  const sweep = refusal(() => engine.sweep({ schedule: '1f1b', ranks: 64 }, 'micro_batches', new Array(300).fill(32768)));
  assert.equal(sweep.code, 'limit_exceeded');
  assert.match(sweep.message, /^a sweep may simulate at most 8388608 /);
  assert.equal(engine.simulate({}).summary.makespan, 66);
});
