// How the modules quote a bad JavaScript value in a refusal (wasm/bindings_common.h js_text): a number
// or a short string as the user wrote it, a long string cut to 40 characters before it is copied into
// the module, and an array or an object by its kind, never by what String() makes of it (String([8])
// is "8", and an object's own toString may throw). The page words the kinds in pt-BR and zh-CN
// (web/src/i18n/refusals.ts JSON_KINDS), so the wording's value is the same kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCourse, loadEngine, loadTools, refusal } from './engine.mjs';

const engine = await loadEngine();
const course = await loadCourse({ courseData: false });
const tools = await loadTools();
const huge = '9'.repeat(1 << 20);

/** The refusal of a size field given `value`: its message and its wording's value. */
function sizeRefusal(field, value) {
  const e = refusal(() => engine.simulate({ schedule: '1f1b', [field]: value }));
  assert.equal(e.wording.key, 'size.whole_number', e.message);
  return { message: e.message, value: e.wording.params.value };
}

test('an array or an object in a whole-number field is quoted by its kind, not by String()', () => {
  assert.deepEqual(sizeRefusal('ranks', [8]), { message: 'ranks must be a whole number, got an array', value: 'an array' });
  assert.deepEqual(sizeRefusal('microBatches', { valueOf: () => 8 }), { message: 'micro-batches must be a whole number, got an object', value: 'an object' });
  // Its own toString is never called: one that throws is refused like any object.
  const hostile = { toString() { throw new Error('called'); } };
  assert.equal(sizeRefusal('virtualStages', hostile).value, 'an object');
  let calls = 0;
  const counted = { toString: () => { calls += 1; return '8'; } };
  assert.equal(sizeRefusal('ranks', counted).value, 'an object');
  assert.equal(sizeRefusal('ranks', [counted]).value, 'an array');
  assert.equal(calls, 0, 'never asked for its text');
  assert.equal(sizeRefusal('ranks', () => 8).value, 'a function');
  assert.equal(engine.simulate({ schedule: '1f1b', ranks: 4, microBatches: 8 }).summary.ranks, 4, 'still working');
});

test('a long string is cut to 40 characters in the message, and no cut text reads as a number', () => {
  const cut = sizeRefusal('ranks', huge);
  assert.equal(cut.value, `${'9'.repeat(37)}...`);
  assert.equal(cut.message, `ranks must be a whole number, got ${'9'.repeat(37)}...`);
  // A 40-character string is quoted whole; one more is cut.
  assert.equal(sizeRefusal('ranks', 'x'.repeat(40)).value, 'x'.repeat(40));
  assert.equal(sizeRefusal('ranks', 'x'.repeat(41)).value, `${'x'.repeat(37)}...`);
  // Never half of a surrogate pair: 18 whole emoji (36 UTF-16 units) and the dots.
  assert.equal(sizeRefusal('ranks', '😀'.repeat(30)).value, `${'😀'.repeat(18)}...`);
  // Numbers, short strings and booleans are quoted as written.
  assert.equal(sizeRefusal('ranks', 2.5).value, '2.5');
  assert.equal(sizeRefusal('ranks', 'eight').value, 'eight');
  assert.equal(sizeRefusal('ranks', true).value, 'true');
  assert.equal(sizeRefusal('ranks', 10n ** 60n).value, `${'1'.padEnd(37, '0')}...`);
});

test('the course module quotes its whole-number arguments the same way', () => {
  const model = { schedule: '1f1b', model: '{}' };
  for (const [value, quoted] of [[[8], 'an array'], [huge, `${'9'.repeat(37)}...`]]) {
    const e = refusal(() => course.simulateModel({ ...model, ranks: value }));
    assert.equal(e.field, 'ranks');
    assert.equal(e.wording.params.value, quoted);
    assert.ok(e.message.length < 100, e.message);
  }
  const e = refusal(() => course.planSearchStep([5]));
  assert.equal(e.code, 'usage', 'no search begun: refused before the count is read');
});

test('the chunk model\'s optional numbers quote a long text cut, and take an array for no number', () => {
  const e = refusal(() => tools.overlap({ ppComm: huge }));
  assert.equal(e.wording.key, 'arg.number');
  assert.equal(e.wording.params.value, `${'9'.repeat(37)}...`);
  assert.ok(e.message.length < 100, e.message);
  const sms = refusal(() => tools.overlap({ commSms: [20] }));
  assert.equal(sms.wording.params.value, 'an array');
  // A number field refuses any value that is no number as no number (it said "must be a string").
  for (const [value, quoted] of [[[0.5], 'an array'], [true, 'true'], [{}, 'an object'], ['2x', '2x'], [Number.NaN, 'NaN']]) {
    const comm = refusal(() => tools.overlap({ ppComm: value }));
    assert.equal(comm.wording.key, 'arg.number', String(value));
    assert.equal(comm.wording.params.value, quoted);
    assert.equal(comm.message, `ppComm must be a number, got ${quoted}`);
  }
  const direct = { forward: 'attn=2,dispatch=1,mlp=2,combine=1', backward: 'combine=1,mlp_b=2,mlp_w=1,dispatch=1,attn_b=2,attn_w=1' };
  assert.deepEqual(tools.overlap({ ...direct, ppComm: '0.5' }), tools.overlap({ ...direct, ppComm: 0.5 }));
});

test('a trace\'s microseconds per unit must be a number or its text: [1000] is no longer read as 1000', () => {
  const request = { schedule: '1f1b', ranks: 2, microBatches: 2 };
  assert.ok(tools.exportText(request, 'chrome-trace', 1000).text.includes('traceEvents'));
  assert.ok(tools.exportText(request, 'chrome-trace', '1000').text.includes('traceEvents'));
  const e = refusal(() => tools.exportText(request, 'chrome-trace', [1000]));
  assert.equal(e.wording.key, 'number.range');
  assert.equal(e.wording.params.value, 'an array');
  assert.equal(refusal(() => tools.exportText(request, 'chrome-trace', huge)).wording.params.value, `${'9'.repeat(37)}...`);
});
