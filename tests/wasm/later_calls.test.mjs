// The engine's calls the page's first drawing does not need (wasm/bindings_later.cpp: the exports, the
// chunk model and its default workload) live in the tools module, with the profiler trace readers
// (wasm/bindings_tools.cpp), which the page loads on first need, and in the engine's Node build; the
// page's engine module (pipesim_engine.wasm, its first download) goes without them, and so does the
// course module (the learning layer: quiz, lessons, planner). The page calls them on the tools module:
// they must answer there exactly as the engine's Node build (itself checked against the CLI in
// engine.test.mjs and exports.test.mjs) does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import test from 'node:test';
import { loadCourse, loadEngine, loadTools, refusal } from './engine.mjs';

const engine = await loadEngine();
const tools = await loadTools();
const wasm = (name) => readFileSync(new URL(`../../build-wasm/wasm/${name}.wasm`, import.meta.url));
/** Whether Embind registers `name` in the module: its name is a string of the module's data. */
const registers = (bytes, name) => bytes.includes(Buffer.from(`${name}\0`));

const LATER = ['exportText', 'overlap', 'defaultWorkload'];
const TRACES = ['overlapTrace', 'measuredPipeline'];
const COURSE = ['courseQuiz', 'quizQuestions', 'lesson', 'plan', 'planSearchBegin', 'planSearchStep', 'planSearchResult', 'simulateModel', 'provideCourseData'];

test('the page\'s engine module leaves exportText, overlap and defaultWorkload to the tools module', () => {
  const page = wasm('pipesim_engine');
  for (const name of LATER) {
    assert.equal(registers(page, name), false, `${name} is not in pipesim_engine.wasm`);
    assert.equal(registers(wasm('pipesim_engine_node'), name), true, `${name} is in the Node build`);
    assert.equal(typeof tools[name], 'function', `the tools module has ${name}`);
  }
  // What the first drawing needs stays in the page's module.
  for (const name of ['simulate', 'simulateJson', 'exportFormats', 'actions']) assert.equal(registers(page, name), true, `${name} is in pipesim_engine.wasm`);
});

test('the course and the tools modules are apart: each has its own calls and none of the other\'s', async () => {
  const course = await loadCourse({ courseData: false });
  for (const name of [...LATER, ...TRACES]) {
    assert.equal(course[name], undefined, `${name} is not in the course module`);
    assert.equal(typeof tools[name], 'function', `${name} is in the tools module`);
  }
  for (const name of COURSE) {
    assert.equal(typeof course[name], 'function', `${name} is in the course module`);
    assert.equal(tools[name], undefined, `${name} is not in the tools module`);
  }
  for (const name of ['simulate', 'sweep']) assert.equal(tools[name], undefined, `the tools module has no ${name}`);
});

test('every export format is written by the tools module exactly as by the engine', () => {
  const request = { schedule: 'dualpipe', ranks: 8, microBatches: 20 };
  for (const { name } of engine.exportFormats()) {
    assert.equal(tools.exportText(request, name, 0).text, engine.exportText(request, name, 0).text, name);
  }
  assert.equal(tools.exportText({ schedule: 'zb-v', ranks: 4, microBatches: 8 }, 'chrome-trace', 250).text,
    engine.exportText({ schedule: 'zb-v', ranks: 4, microBatches: 8 }, 'chrome-trace', 250).text);
});

test('the tools module refuses a bad export request in the engine\'s words', () => {
  for (const [request, format, us] of [[{ schedule: 'dualpipe', ranks: 7, microBatches: 20 }, 'csv', 0], [{ schedule: 'dualpipe', ranks: 8, microBatches: 20 }, 'no-such-format', 0], [{}, 'chrome-trace', -1]]) {
    const ours = refusal(() => tools.exportText(request, format, us));
    const theirs = refusal(() => engine.exportText(request, format, us));
    assert.equal(ours.message, theirs.message);
    assert.equal(ours.code, theirs.code);
  }
});

test('the chunk model and its default workload answer in the tools module as in the engine', () => {
  assert.deepEqual(tools.defaultWorkload(), engine.defaultWorkload());
  for (const request of [{}, { ratio: '1:1', commSms: 20 }, { forward: 'attn=2,dispatch=1,mlp=2,combine=1', backward: 'combine=1,mlp_b=2,mlp_w=1,dispatch=1,attn_b=2,attn_w=1', ppComm: 0.5 }]) {
    assert.deepEqual(tools.overlap(request), engine.overlap(request));
  }
  for (const bad of [{ commSms: 132 }, { forward: 'attn=2,mlp=3' }]) assert.equal(refusal(() => tools.overlap(bad)).message, refusal(() => engine.overlap(bad)).message);
});
