// Exports of every size (issue 18): an export the module cannot hand to JavaScript as one string is
// refused with a PipesimError naming its size, and the module keeps working afterwards. Before the
// fix, SVG or JSON of ZB-H1 2048 x 768 aborted inside WebAssembly and every later call failed with
// `memory access out of bounds`.
// The exports measured against the budget byte by byte (the longest to run) are in export_budget.test.mjs,
// a file of their own so that the two run side by side.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertStillWorks, loadEngine, refusal } from './engine.mjs';

const engine = await loadEngine();
const HUGE = { schedule: 'zb-h1', ranks: 2048, microBatches: 768 };  // 4,718,592 ops, within every limit
const LARGEST = { schedule: 'zb-h1', ranks: 2048, microBatches: 1024 };

/** How many pieces text.split(separator) would give, counted without making 6 million strings. */
function pieces(text, separator) {
  let n = 1;
  for (let at = text.indexOf(separator); at !== -1; at = text.indexOf(separator, at + separator.length)) n += 1;
  return n;
}

const stillWorks = () => assertStillWorks(engine);

test('SVG, JSON and Chrome-trace exports of ZB-H1 2048 x 768 are refused up front with their least size', () => {
  for (const [format, least] of [['svg', '405.0 MiB'], ['json', '450.0 MiB'], ['chrome-trace', '675.0 MiB']]) {
    const e = refusal(() => engine.exportText(HUGE, format, 0));
    assert.equal(e.code, 'limit_exceeded', e.message);
    assert.equal(
      e.message,
      `the ${format} export of this run would take at least ${least}, over the 256.0 MiB one export may take in memory ` +
        `here; export a smaller run, or use the CLI, which streams it (pipesim simulate --format ${format})`,
    );
    stillWorks();
  }
});

test('the full JSON of the largest accepted run, through simulateJson too, is refused and the module keeps working', () => {
  for (const call of [() => engine.simulateJson(LARGEST, 'json'), () => engine.exportText(LARGEST, 'json', 0)]) {
    const e = refusal(call);
    assert.equal(e.code, 'limit_exceeded');
    assert.match(e.message, /^the json export of this run would take at least 600\.0 MiB, over the 256\.0 MiB/);
    stillWorks();
  }
  // The summary of the same run is small and is given.
  assert.equal(JSON.parse(engine.simulateJson(LARGEST, 'summary').json).op_count, 6291456);
});

test('the CSV and actions of the largest accepted run fit the budget and come whole', () => {
  const csv = engine.exportText(LARGEST, 'csv', 0).text;
  assert.ok(csv.length <= 256 * 2 ** 20, `${csv.length} bytes`);
  assert.ok(csv.endsWith('\r\n'));
  assert.equal(pieces(csv, '\r\n'), 1 + 6291456 + 1);
  const actions = engine.exportText(LARGEST, 'actions', 0).text;
  assert.equal(actions.split('\n').length, 2048 + 1);
  stillWorks();
});

test('arguments whose own JavaScript throws are refused as bad_value and leave nothing broken', () => {
  const getter = { schedule: 'gpipe', get ranks() { throw new Error('boom'); } };
  const proxy = new Proxy({}, { get() { throw new Error('trap'); }, ownKeys() { throw new Error('keys'); } });
  const toText = { schedule: 'gpipe', ranks: { toString() { throw new Error('no text'); } } };
  const e1 = refusal(() => engine.simulate(getter));
  assert.equal(e1.code, 'bad_value');
  assert.equal(e1.message, 'simulate: reading its arguments raised a JavaScript error (boom)');
  assert.equal(refusal(() => engine.exportText(proxy, 'svg', 0)).code, 'bad_value');
  const e3 = refusal(() => engine.simulate(toText));
  assert.equal(e3.code, 'bad_value');
  assert.equal(e3.message, 'ranks must be a whole number, got an object'); // by its kind: its toString is never called
  stillWorks();
});

test('a call with too few arguments is refused in the engine\'s words, with too many as usage', () => {
  assert.equal(refusal(() => engine.simulate()).message, "a request must be an object like {schedule: 'dualpipe', ranks: 8, microBatches: 20}");
  assert.equal(refusal(() => engine.exportText({})).message, 'export format must be a string, got undefined');
  const extra = refusal(() => engine.simulate({}, 1));
  assert.equal(extra.code, 'usage');
  assert.equal(extra.message, 'simulate takes 1 argument, got 2');
  assert.equal(refusal(() => engine.sweep({}, 'ranks', [1], 2)).message, 'sweep takes 3 arguments, got 4');
  stillWorks();
});

test('C1 and bidi controls are escaped in messages, and a lone surrogate is U+FFFD, its neighbour kept', () => {
  const csi = refusal(() => engine.simulate({ schedule: 'x\u009b31m' }));
  assert.match(csi.message, /^unknown schedule 'x\\u009b31m'; /);
  const bidi = refusal(() => engine.simulate({ schedule: 'evil\u202Etxt' }));
  assert.match(bidi.message, /^unknown schedule 'evil\\u202etxt'; /);
  const lone = refusal(() => engine.simulate({ schedule: 'a\uD800b' }));
  assert.match(lone.message, /^unknown schedule 'a\uFFFDb'; /);
  stillWorks();
});

test('a sweep whose values claim a length of -1, NaN, 2^32 or 1e10 is refused, never run as an empty sweep', () => {
  const request = { schedule: '1f1b', ranks: 4 };
  for (const length of [-1, NaN, 2 ** 32, 1e10, 2.5]) {
    const claiming = new Proxy([16], { get: (target, key) => (key === 'length' ? length : target[key]) });
    const e = refusal(() => engine.sweep(request, 'micro_batches', claiming));
    assert.ok(['bad_value', 'limit_exceeded'].includes(e.code), `${length}: ${e.code} ${e.message}`);
    stillWorks();
  }
  const long = [];
  long.length = 2 ** 32 - 1;
  const e = refusal(() => engine.sweep(request, 'micro_batches', long));
  assert.equal(e.code, 'limit_exceeded');
  assert.equal(e.message, 'a sweep takes at most 512 points (got 4294967295)');
  stillWorks();
});
