// One run's result or its refusal, made by one function for the engine client and the worker's tasks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';

const { outcomeOf, isRefusal } = await loadWebModule('engine/outcome');

/** A refusal as the tests make it: any Error with a string code, not the engine's own class. */
class StandIn extends Error {
  constructor(message, code, extra = {}) {
    super(message);
    this.code = code;
    Object.assign(this, extra);
  }
}

test('a value is kept as the outcome', () => {
  assert.deepEqual(outcomeOf(() => 42), { value: 42 });
});

test('a refusal keeps its message and code, known by its shape rather than its class', () => {
  const refusal = new StandIn('ranks must be at least 2, not 1', 'bad_argument');
  assert.equal(isRefusal(refusal), true);
  assert.deepEqual(outcomeOf(() => { throw refusal; }), { error: { message: 'ranks must be at least 2, not 1', code: 'bad_argument' } });
});

test("a refusal keeps the page's wording and the field it is about when the engine gave them, and nothing undefined when not", () => {
  const wording = { key: 'refusal.minRanks', params: { min: '2' } };
  const refused = outcomeOf(() => { throw new StandIn('too few ranks', 'bad_argument', { wording, field: 'ranks', broken: false }); });
  assert.deepEqual(refused, { error: { message: 'too few ranks', code: 'bad_argument', wording, field: 'ranks' } });
  const bare = outcomeOf(() => { throw new StandIn('no', 'usage', { wording: undefined, field: undefined }); });
  assert.deepEqual(Object.keys(bare.error), ['message', 'code']);
});

test('an error without a string code is a bug, not a refusal: it is thrown on', () => {
  assert.equal(isRefusal(new TypeError('x is undefined')), false);
  assert.equal(isRefusal({ message: 'not an Error', code: 'usage' }), false);
  assert.throws(() => outcomeOf(() => { throw new TypeError('x is undefined'); }), TypeError);
  const numbered = Object.assign(new Error('numbered'), { code: 7 });
  assert.throws(() => outcomeOf(() => { throw numbered; }), /numbered/);
});

test("the engine client and the worker's tasks both make their outcomes with it", async () => {
  const { readFileSync } = await import('node:fs');
  const source = (name) => readFileSync(new URL(`../../web/src/engine/${name}.ts`, import.meta.url), 'utf8');
  for (const name of ['client', 'tasks']) {
    assert.match(source(name), /import \{[^}]*\boutcomeOf\b[^}]*\} from '\.\/outcome'/, `${name}.ts imports outcomeOf`);
    assert.doesNotMatch(source(name), /catch \(e\)[^}]*return \{ error: \{ message/s, `${name}.ts builds no refusal outcome of its own`);
  }
});
