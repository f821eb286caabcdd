// The tools module's overlapTrace answers as `pipesim overlap --trace FILE --format json` does, refuses
// what is not a profiler trace with the CLI's message and code, and stays usable afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLI, cliLine, loadTools, refusal } from './engine.mjs';

const tools = await loadTools(); // the trace readers live in the tools module, beside the exports
const fixture = fileURLToPath(new URL('../data/profiler/chunk_pair.json', import.meta.url));

test('overlapTrace gives the JSON of overlap --trace', () => {
  const r = spawnSync(CLI, ['overlap', '--trace', fixture, '--format', 'json'], { encoding: 'utf8' });
  assert.equal(r.status, 0);
  const result = tools.overlapTrace(readFileSync(fixture, 'utf8'), 'en');
  assert.deepEqual(result, JSON.parse(r.stdout));
  assert.equal(result.measured.span_us, 44);
  assert.equal(result.measured.communication_busy_us, 28.25);
});

test('overlapTrace refuses a truncated trace as the CLI does, then reads a good one', () => {
  const text = readFileSync(fixture, 'utf8');
  const e = refusal(() => tools.overlapTrace(text.slice(0, 1000), 'en'));
  assert.equal(e.code, 'bad_import');
  const r = spawnSync(CLI, ['overlap', '--trace', '-', '--format', 'json'], { input: text.slice(0, 1000), encoding: 'utf8' });
  assert.equal(r.stderr, cliLine(e));
  assert.equal(refusal(() => tools.overlapTrace('[]', 'en')).code, 'bad_import');
  assert.equal(tools.overlapTrace(text, 'en').measured.kernels, 15);
});

test('overlapTrace words the derivation in the language asked and refuses an unknown one, naming it', () => {
  const text = readFileSync(fixture, 'utf8');
  const formulas = (lang) => new Set(tools.overlapTrace(text, lang).derivation.map((d) => d.formula));
  assert.deepEqual(formulas('pt-BR'), new Set(['medido: a união dos seus kernels no trace']));
  assert.deepEqual(formulas('zh-CN'), new Set(['实测：trace 中其各 kernel 的并集']));
  const values = (lang) => tools.overlapTrace(text, lang).derivation.map((d) => d.value);
  assert.deepEqual(values('zh-CN'), values('en'), 'the words change, not the numbers');
  const e = refusal(() => tools.overlapTrace(text, 'fr'));
  assert.equal(e.code, 'unknown_name');
  assert.equal(e.field, 'language');
  assert.equal(tools.overlapTrace(text, 'en').measured.kernels, 15, 'the module keeps working');
});

test('measuredPipeline gives the JSON of simulate --measured, and names a refused trace', () => {
  const dir = fileURLToPath(new URL('../data/profiler/pipeline_4rank/', import.meta.url));
  const texts = ['trace_a.json', 'trace_b.json', 'trace_c.json', 'trace_d.json'].map((f) => readFileSync(dir + f, 'utf8'));
  for (const align of ['profiler', 'first-ops']) {
    const r = spawnSync(CLI, ['simulate', '--measured', dir, '--align', align, '--format', 'json'], { encoding: 'utf8' });
    assert.equal(r.status, 0);
    assert.deepEqual(tools.measuredPipeline(texts, align), JSON.parse(r.stdout));
  }
  const e = refusal(() => tools.measuredPipeline([texts[0], '{"traceEvents": 3}'], 'profiler'));
  assert.equal(e.code, 'bad_import');
  assert.match(e.message, /^trace 2: not a profiler trace: traceEvents is not an array/);
  assert.equal(refusal(() => tools.measuredPipeline(texts, 'hosts')).code, 'unknown_name');
  assert.equal(tools.measuredPipeline(texts, 'profiler').makespan_us, 2137.5);
});
