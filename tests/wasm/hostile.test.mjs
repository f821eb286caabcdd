// The same classes of hostile input the page is given (tests/browser/hostile.test.mjs), given to the
// native CLI and to the WebAssembly module directly: numbers no field accepts, markup, wrong JavaScript
// types, requests over the limits, broken imports, and planner and chunk-model input. The CLI must
// print one line `pipesim: error[CODE]: MESSAGE` and exit 2; the module must throw a PipesimError with
// a code and a message and then keep working. docs/robustness.md counts these cases per class.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, loadCourse, loadEngine, refusal } from './engine.mjs';

const engine = await loadEngine();
const course = await loadCourse();
const CODES = ['usage', 'bad_value', 'unknown_name', 'limit_exceeded', 'schedule_rule', 'bad_import', 'invalid_schedule', 'deadlock', 'io'];

const counts = {};
const count = (surface, cls) => ((counts[surface] ??= {})[cls] = (counts[surface][cls] ?? 0) + 1);
after(() => console.log(`hostile cases per surface and class: ${JSON.stringify(counts)}`));

/** The CLI's refusal: exit 2 and one line naming a known code, never `internal`. */
function cliRefuses(args, cls, { input, code } = {}) {
  const r = spawnSync(CLI, args, { encoding: 'utf8', input, maxBuffer: 1 << 26 });
  const label = `pipesim ${args.map((a) => (a.length > 60 ? `${a.slice(0, 60)}...` : a)).join(' ')}`;
  assert.equal(r.status, 2, `${label}: exit status ${r.status}, stderr ${r.stderr.slice(0, 300)}`);
  assert.equal(r.stdout, '', `${label}: printed output`);
  const m = /^pipesim: error\[([a-z_]+)\]: (.+)\n$/.exec(r.stderr);
  assert.ok(m, `${label}: not one error line: ${JSON.stringify(r.stderr.slice(0, 300))}`);
  assert.ok(CODES.includes(m[1]), `${label}: code ${m[1]}`);
  if (code) assert.equal(m[1], code, `${label}: ${m[2]}`);
  count('CLI', cls);
  return { code: m[1], message: m[2] };
}

/** The module's refusal: a PipesimError with a code (never `internal`), and the module still works. */
function wasmRefuses(call, cls, { code, message } = {}) {
  const e = refusal(call);
  assert.ok(e instanceof engine.PipesimError || e instanceof course.PipesimError, 'a PipesimError of either module');
  assert.ok(CODES.includes(e.code), `code ${e.code}: ${e.message}`);
  assert.ok(e.message.length > 0 && !e.message.includes('\n'), `one line: ${e.message}`);
  if (code) assert.equal(e.code, code, e.message);
  if (message) assert.match(e.message, message);
  assert.equal(engine.simulate({}).summary.makespan, 66, 'the module keeps working');
  count('wasm API', cls);
  return e;
}

const MARKUP = ['<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '"><svg onload=alert(1)>'];
const NUMBERS = ['1e30', 'NaN', 'Infinity', '-Infinity', '-5', '0', '2.5', '', ' ', '1e', '99999999999999999999', '9'.repeat(100000)];

test('hostile numbers and markup in every size field: CLI and module refuse them', () => {
  const fields = [
    ['ranks', '--ranks', { schedule: '1f1b', microBatches: 8 }, ['--schedule', '1f1b', '--micro-batches', '8']],
    ['microBatches', '--micro-batches', { schedule: '1f1b', ranks: 4 }, ['--schedule', '1f1b', '--ranks', '4']],
    ['virtualStages', '--virtual-stages', { schedule: 'interleaved-1f1b', ranks: 4, microBatches: 8 }, ['--schedule', 'interleaved-1f1b', '--ranks', '4', '--micro-batches', '8']],
  ];
  for (const [key, option, base, args] of fields) {
    for (const v of [...NUMBERS, ...MARKUP]) {
      const cls = MARKUP.includes(v) ? 'markup in a field' : 'hostile number in a size';
      cliRefuses(['simulate', ...args, option, v], cls, { code: 'bad_value' });
      wasmRefuses(() => engine.simulate({ ...base, [key]: v }), cls, { code: 'bad_value' });
    }
    // The same numbers as JavaScript numbers, not text.
    for (const v of [1e30, NaN, Infinity, -Infinity, -5, 0, 2.5, Number.MAX_VALUE, Number.MIN_VALUE, 2 ** 53 + 2])
      wasmRefuses(() => engine.simulate({ ...base, [key]: v }), 'hostile number in a size', { code: 'bad_value' });
  }
});

test('hostile numbers and markup in every cost: CLI and module refuse them', () => {
  for (const key of ['F', 'B', 'W', 'FB', 'comm']) {
    for (const v of ['1e30', 'NaN', 'Infinity', '-Infinity', '-5', '', '1e400', 'x', ...MARKUP]) {
      const cost = `${key}=${v}`;
      const cls = MARKUP.includes(v) ? 'markup in a field' : 'hostile number in a cost';
      const native = cliRefuses(['simulate', '--schedule', '1f1b', '--ranks', '4', '--micro-batches', '8', '--cost', cost], cls);
      const e = wasmRefuses(() => engine.simulate({ schedule: '1f1b', ranks: 4, microBatches: 8, cost }), cls);
      assert.equal(e.message, native.message, `the module and the CLI word ${cost} alike`);
    }
  }
  for (const cost of ['F=1,F=1', 'F=0,B=0', 'F=1,B=2,FB=1.5', 'F=1,B=2,FB=9', '=', 'F', 'F=1;B=2', 'G=1', ...MARKUP]) {
    const native = cliRefuses(['simulate', '--cost', cost], 'hostile number in a cost');
    assert.equal(wasmRefuses(() => engine.simulate({ cost }), 'hostile number in a cost').message, native.message);
  }
  for (const scale of ['NaN', 'Infinity', '-1', '0.0001', '1e30', 'x']) {
    cliRefuses(['simulate', '--format', 'chrome-trace', '--us-per-unit', scale], 'hostile number in a cost', { code: 'bad_value' });
    wasmRefuses(() => engine.exportText({}, 'chrome-trace', scale), 'hostile number in a cost', { code: 'bad_value' });
  }
});

test('markup and huge strings as names: refused as unknown, quoted as text', () => {
  for (const name of [...MARKUP, 'x'.repeat(100000), 'dualpipe\u0001', 'DUALPIPE ', '__proto__', 'constructor']) {
    const native = cliRefuses(['simulate', '--schedule', name], 'markup in a field');
    const e = wasmRefuses(() => engine.simulate({ schedule: name }), 'markup in a field');
    assert.equal(e.message, native.message);
  }
  for (const format of [...MARKUP, 'pdf']) {
    cliRefuses(['simulate', '--format', format], 'markup in a field', { code: 'unknown_name' });
    wasmRefuses(() => engine.exportText({}, format, 0), 'markup in a field', { code: 'unknown_name' });
  }
  for (const lang of MARKUP) {
    cliRefuses(['quiz', '--course', '--lang', lang], 'markup in a field');
    wasmRefuses(() => course.courseQuiz(lang), 'markup in a field');
  }
});

test('requests of the wrong JavaScript types are PipesimErrors, never binding errors or crashes', () => {
  // Anything but an object; an object without the fields (an array, a Date) is the default request.
  for (const v of [null, undefined, true, 42, NaN, 'text', () => 1, Symbol('s'), 10n]) wasmRefuses(() => engine.simulate(v), 'wrong types in the request', { code: 'usage' });
  for (const key of ['schedule', 'cost', 'customSchedule'])
    for (const v of [42, true, {}, [], () => 1, 10n]) wasmRefuses(() => engine.simulate({ schedule: key === 'customSchedule' ? 'custom' : '1f1b', [key]: v }), 'wrong types in the request');
  for (const key of ['ranks', 'microBatches', 'virtualStages'])
    for (const v of [true, {}, [1, 2], () => 1, Symbol('s')]) wasmRefuses(() => engine.simulate({ schedule: 'interleaved-1f1b', [key]: v }), 'wrong types in the request');
  // A request whose getters throw, or that is a Proxy: the module must not be left half-way.
  const throwing = { get ranks() { throw new Error('boom'); } };
  assert.throws(() => engine.simulate(throwing));
  assert.equal(engine.simulate({}).summary.makespan, 66);
  count('wasm API', 'wrong types in the request');
  for (const v of [42, null, {}, [1]]) {
    wasmRefuses(() => course.plan(v, 'en'), 'wrong types in the request');
    wasmRefuses(() => engine.sweep({}, v, [1]), 'wrong types in the request');
  }
  for (const v of [42, null, {}, 'ranks', [1, 'x'], [NaN], [1e30], [Infinity]]) wasmRefuses(() => engine.sweep({}, 'ranks', v), 'wrong types in the request');
  for (const v of [42, 'x', null, () => 1, Symbol('s')]) wasmRefuses(() => engine.overlap(v), 'wrong types in the request');
  for (const key of ['commSms', 'totalSms', 'ppComm'])
    for (const v of [NaN, Infinity, -1, 1e30, 2.5, 'x', {}]) wasmRefuses(() => engine.overlap({ [key]: v }), 'hostile number in a size');
  for (const key of ['forward', 'backward', 'ratio', 'workload'])
    for (const v of [key === 'ratio' ? -42 : 42, {}, '<script>', 'attn=NaN', '1e400', '{"tokens": 1e400}']) wasmRefuses(() => engine.overlap({ [key]: v }), 'markup in a field');
});

test('requests over a limit are refused up front with the limit named', () => {
  const cases = [
    [{ schedule: '1f1b', ranks: 4097, microBatches: 8 }, ['--schedule', '1f1b', '--ranks', '4097', '--micro-batches', '8'], /at most 4096/],
    [{ schedule: '1f1b', ranks: 8, microBatches: 1048577 }, ['--schedule', '1f1b', '--ranks', '8', '--micro-batches', '1048577'], /at most 1048576/],
    [{ schedule: 'interleaved-1f1b', ranks: 4, microBatches: 8, virtualStages: 17 }, ['--schedule', 'interleaved-1f1b', '--ranks', '4', '--micro-batches', '8', '--virtual-stages', '17'], /at most 16/],
    [{ schedule: 'gpipe', ranks: 4096, microBatches: 1048576 }, ['--schedule', 'gpipe', '--ranks', '4096', '--micro-batches', '1048576'], /would have 8589934592 ops, over the 6291456 ops one run may have$/],
    [{ schedule: 'zb-v', ranks: 2048, microBatches: 2048 }, ['--schedule', 'zb-v', '--ranks', '2048', '--micro-batches', '2048'], /would have 25165824 ops, over the 6291456 ops/],
    [{ schedule: 'zb-v', ranks: 2048, microBatches: 1024 }, ['--schedule', 'zb-v', '--ranks', '2048', '--micro-batches', '1024'], /would have 12582912 ops, over the 6291456 ops/],
    [{ schedule: 'dualpipe', ranks: 4096, microBatches: 8192 }, ['--schedule', 'dualpipe', '--ranks', '4096', '--micro-batches', '8192'], /over the 6291456 ops one run may have$/],
  ];
  for (const [req, args, limit] of cases) {
    const e = wasmRefuses(() => engine.simulate(req), 'over a limit', { code: 'limit_exceeded', message: limit });
    assert.equal(cliRefuses(['simulate', ...args], 'over a limit', { code: 'limit_exceeded' }).message, e.message);
  }
  wasmRefuses(() => engine.sweep({ schedule: '1f1b', ranks: 64 }, 'micro_batches', new Array(300).fill(32768)), 'over a limit', { code: 'limit_exceeded' });
  wasmRefuses(() => engine.sweep({}, 'micro_batches', new Array(513).fill(4)), 'over a limit', { code: 'limit_exceeded' });
  wasmRefuses(() => course.plan(' '.repeat((1 << 20) + 1), 'en'), 'over a limit', { code: 'limit_exceeded' });
  wasmRefuses(() => engine.overlap({ workload: ' '.repeat((1 << 20) + 1) }), 'over a limit', { code: 'limit_exceeded' });
});

const op = (o) => ({ op: 'F', mb: 0, stage: 0, ...o });
const jsonSchedule = (ops, extra = {}) => JSON.stringify({ micro_batches: 1, per_rank: [{ ops }], ...extra });
const traceOf = (events, other = {}) => JSON.stringify({ traceEvents: events, otherData: { generator: 'pipesim', ranks: 1, stages: 1, directions: 1, micro_batches: 1, ...other } });
const event = (kind, mb, extra = {}) => ({ name: `${kind}${mb}`, cat: 'compute', ph: 'X', ts: 0, dur: 1, pid: 1, tid: 1, args: { kind, mb, phase: 0, stage: 0, rank: 0, index: kind === 'F' ? 0 : 1, ...extra } });

const IMPORTS = [
  ['import JSON', ['{', '{"micro_batches": NaN}', '{"micro_batches": 1e400, "per_rank": []}', '[]', '{}', '{"micro_batches": "1", "per_rank": []}',
    '{"micro_batches": 1, "per_rank": "x"}', '{"micro_batches": 1, "per_rank": [5]}', jsonSchedule([5]), jsonSchedule([op({ mb: 1e30 })]),
    jsonSchedule([op({ mb: -1 })]), jsonSchedule([op({ mb: 0.5 })]), jsonSchedule([op({ op: '<script>' })]), jsonSchedule([op({}), op({}), op({ op: 'B' })]),
    jsonSchedule([op({})]), '{"micro_batches": 1, "directions": 3, "per_rank": []}', '{"micro_batches": 1, "per_rank": ' + '['.repeat(100000) + ']'.repeat(100000) + '}',
    '{"a":'.repeat(100000) + '1' + '}'.repeat(100000), JSON.stringify({ micro_batches: 1, per_rank: Array.from({ length: 4097 }, (_, r) => ({ ops: [op({ stage: r }), op({ op: 'B', stage: r })] })) })]],
  ['import actions', ['0F0,0B0\n2X1', 'null', '(0F0;0B1', '\u0000\u001b[31m', '0F99999999999999999999', '0F-1', '0F0,0F0,0B0,0B0', '0F0', '0B0,0F0', '0F0,0B0\n2F0,2B0',
    '0F0,0B0,0F1,0B1\n1F1,1B1,1F0,1B0', MARKUP.join(','), Array.from({ length: 4097 }, (_, r) => `${r}F0,${r}B0`).join('\n'), '0F0,'.repeat(1 << 20)]],
  ['import Chrome trace', [traceOf([event('F', 0), event('B', 0)], { generator: 'x' }), traceOf('x'), traceOf([5, null]), traceOf([event('F', 0)]),
    traceOf([event('F', 0), event('B', 0)], { micro_batches: 1e30 }), traceOf([event('F', 0, { mb: '0' }), event('B', 0)]), traceOf([event('F', 0, { mb: -1 }), event('B', 0)]),
    traceOf([event('F', 0), event('B', 0), event('B', 0)]), traceOf([event('F', 0), event('B', 0)]).replace('"ts":0', '"ts":1e400'),
    traceOf([{ ...event('F', 0), args: undefined }, event('B', 0)]), traceOf([event('F', 0, { kind: '<img src=x onerror=alert(1)>' }), event('B', 0)])]],
];

test('hostile imports: the CLI (--schedule-file -) and the module refuse each with the same line', () => {
  for (const [cls, texts] of IMPORTS)
    for (const text of texts) {
      const native = cliRefuses(['simulate', '--schedule-file', '-'], cls, { input: text });
      const e = wasmRefuses(() => engine.simulate({ schedule: 'custom', customSchedule: text }), cls);
      assert.equal(`${e.code}: ${e.message}`, `${native.code}: ${native.message}`, `same refusal for ${JSON.stringify(text.slice(0, 80))}`);
    }
  // Over the 64 MB input limit: refused before it is parsed.
  const huge = 'x'.repeat((64 << 20) + 1);
  wasmRefuses(() => engine.simulate({ schedule: 'custom', customSchedule: huge }), 'import over the size limit', { code: 'limit_exceeded' });
  cliRefuses(['simulate', '--schedule-file', '-'], 'import over the size limit', { input: huge, code: 'limit_exceeded' });
});

test('hostile planner input: wrong types, NaN, huge numbers, deep nesting, markup', () => {
  const base = { cluster: { gpus: 64, gpus_per_node: 8 }, model: { pp: 8, micro_batches: 16 } };
  const texts = ['{', '[]', 'null', '{}', JSON.stringify({ ...base, cluster: 'x' }), '{"cluster": {"gpus": NaN}}', '{"cluster": {"gpus": 1e400}}',
    JSON.stringify({ ...base, model: { pp: 1e30, micro_batches: 16 } }), JSON.stringify({ ...base, model: { pp: -8, micro_batches: 16 } }),
    JSON.stringify({ ...base, model: { pp: 2.5, micro_batches: 16 } }), JSON.stringify({ ...base, language: '<script>' }),
    JSON.stringify({ ...base, '<img src=x onerror=alert(1)>': 1 }), '{"a":'.repeat(100000) + '1' + '}'.repeat(100000)];
  for (const text of texts) {
    wasmRefuses(() => course.plan(text, 'en'), 'planner input');
    cliRefuses(['plan', '--input', '-'], 'planner input', { input: text });
  }
});
