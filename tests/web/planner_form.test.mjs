// The planner's form over its JSON (views/planner_form.ts): a form edit sets exactly that field of
// the JSON, and the JSON's values are what the form shows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { loadWebModule } from './load.mjs';

const { withValue, valueAt, PLANNER_FORM } = await loadWebModule('views/planner_form');
const dense = readFileSync(new URL('../../core/data/plan_examples/small-dense.json', import.meta.url), 'utf8');

test('a form edit sets that field of the JSON and leaves every other as it was', () => {
  const edited = JSON.parse(withValue(dense, ['cluster', 'gpu', 'memory_gb'], '40'));
  const original = JSON.parse(dense);
  assert.equal(edited.cluster.gpu.memory_gb, 40);
  original.cluster.gpu.memory_gb = 40;
  assert.deepEqual(edited, original);
});

test('an emptied field leaves the core its default, text stays text for the core to refuse by name', () => {
  assert.equal(JSON.parse(withValue(dense, ['model', 'vocab'], '')).model.vocab, undefined);
  assert.equal(JSON.parse(withValue(dense, ['model', 'layers'], 'many')).model.layers, 'many');
  assert.equal(JSON.parse(withValue('{}', ['cluster', 'gpu', 'tflops'], '312')).cluster.gpu.tflops, 312);
  assert.equal(withValue('{ not json', ['model', 'layers'], '4'), null);
  assert.equal(withValue('[1]', ['model', 'layers'], '4'), null);
});

test('every form field is a field of the planner examples, where the form reads its value', () => {
  const examples = ['deepseek-v3', 'small-dense', 'moe-one-node-ep'].map((name) =>
    JSON.parse(readFileSync(new URL(`../../core/data/plan_examples/${name}.json`, import.meta.url), 'utf8')));
  for (const { fields } of PLANNER_FORM)
    for (const { path } of fields) assert.ok(examples.some((e) => typeof valueAt(e, path) === 'number'), path.join('.'));
  assert.equal(valueAt(JSON.parse(dense), ['cluster', 'gpu', 'memory_gb']), 80);
  assert.equal(valueAt(JSON.parse(dense), ['model', 'nope', 'deeper']), undefined);
});
