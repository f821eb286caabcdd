// The engine's calls the page's first drawing does not need (wasm/bindings_later.cpp: the exports, the
// chunk model and its default workload) live in the course module, which the page loads on first need,
// and in the engine's Node build; the page's engine module (pipesim_engine.wasm, its first download)
// goes without them. The page calls them on the course module: they must answer there exactly as the
// engine's Node build (itself checked against the CLI in engine.test.mjs and exports.test.mjs) does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { loadCourse, loadEngine, refusal } from './engine.mjs';

const engine = await loadEngine();
const course = await loadCourse();
const wasm = (name) => readFileSync(new URL(`../../build-wasm/wasm/${name}.wasm`, import.meta.url));
/** Whether Embind registers `name` in the module: its name is a string of the module's data. */
const registers = (bytes, name) => bytes.includes(Buffer.from(`${name}\0`));

test('the page\'s engine module leaves exportText, overlap and defaultWorkload to the course module', () => {
  const page = wasm('pipesim_engine');
  for (const name of ['exportText', 'overlap', 'defaultWorkload']) {
    assert.equal(registers(page, name), false, `${name} is not in pipesim_engine.wasm`);
    assert.equal(registers(wasm('pipesim_engine_node'), name), true, `${name} is in the Node build`);
    assert.equal(typeof course[name], 'function', `the course module has ${name}`);
  }
  // What the first drawing needs stays in the page's module.
  for (const name of ['simulate', 'simulateJson', 'exportFormats', 'actions']) assert.equal(registers(page, name), true, `${name} is in pipesim_engine.wasm`);
});

test('every export format is written by the course module exactly as by the engine', () => {
  const request = { schedule: 'dualpipe', ranks: 8, microBatches: 20 };
  for (const { name } of engine.exportFormats()) {
    assert.equal(course.exportText(request, name, 0).text, engine.exportText(request, name, 0).text, name);
  }
  assert.equal(course.exportText({ schedule: 'zb-v', ranks: 4, microBatches: 8 }, 'chrome-trace', 250).text,
    engine.exportText({ schedule: 'zb-v', ranks: 4, microBatches: 8 }, 'chrome-trace', 250).text);
});

test('the course module refuses a bad export request in the engine\'s words', () => {
  for (const [request, format, us] of [[{ schedule: 'dualpipe', ranks: 7, microBatches: 20 }, 'csv', 0], [{ schedule: 'dualpipe', ranks: 8, microBatches: 20 }, 'no-such-format', 0], [{}, 'chrome-trace', -1]]) {
    const ours = refusal(() => course.exportText(request, format, us));
    const theirs = refusal(() => engine.exportText(request, format, us));
    assert.equal(ours.message, theirs.message);
    assert.equal(ours.code, theirs.code);
  }
});

test('the chunk model and its default workload answer in the course module as in the engine', () => {
  assert.deepEqual(course.defaultWorkload(), engine.defaultWorkload());
  for (const request of [{}, { ratio: '1:1', commSms: 20 }, { forward: 'attn=2,dispatch=1,mlp=2,combine=1', backward: 'combine=1,mlp_b=2,mlp_w=1,dispatch=1,attn_b=2,attn_w=1', ppComm: 0.5 }]) {
    assert.deepEqual(course.overlap(request), engine.overlap(request));
  }
  for (const bad of [{ commSms: 132 }, { forward: 'attn=2,mlp=3' }]) assert.equal(refusal(() => course.overlap(bad)).message, refusal(() => engine.overlap(bad)).message);
});
