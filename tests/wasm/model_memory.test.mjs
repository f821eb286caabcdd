// The course module's simulateModel answers as `pipesim simulate --model FILE --format summary` does
// (the same division of the model over the schedule's stages, the same bytes per rank), adds each
// rank's activation curve for the Memory tab, refuses bad input with the CLI's message and code, and
// stays usable afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLI, cliLine, loadCourse, refusal } from './engine.mjs';

const course = await loadCourse({ courseData: false }); // a model run needs none of the course data
const example = (name) => fileURLToPath(new URL(`../../core/data/plan_examples/${name}.json`, import.meta.url));
const text = (name) => readFileSync(example(name), 'utf8');

function cli(...args) {
  const r = spawnSync(CLI, ['simulate', ...args], { encoding: 'utf8' });
  return r;
}

/** The summary without the activation curves, which only the module adds. */
function withoutCurves(result) {
  const copy = structuredClone(result);
  for (const r of copy.per_rank) delete r.memory_bytes.activation_curve;
  return copy;
}

for (const [model, schedule, extra] of [
  ['deepseek-v3', 'dualpipe', {}],
  ['deepseek-v3', 'gpipe', {}],
  ['small-dense', '1f1b', {}],
  ['moe-one-node-ep', 'interleaved-1f1b', { virtualStages: 2 }],
]) {
  test(`simulateModel gives simulate --model's summary: ${schedule} on ${model}`, () => {
    const args = ['--model', example(model), '--schedule', schedule, '--format', 'summary'];
    if (extra.virtualStages) args.push('--virtual-stages', String(extra.virtualStages));
    const r = cli(...args);
    assert.equal(r.status, 0, r.stderr);
    const result = course.simulateModel({ schedule, model: text(model), ...extra });
    assert.deepEqual(withoutCurves(result), JSON.parse(r.stdout));
  });
}

test('GPipe on the DeepSeek-V3 example does not fit an 80 GB GPU and DualPipe does, as the CLI says', () => {
  const gpipe = course.simulateModel({ schedule: 'gpipe', model: text('deepseek-v3') });
  const dualpipe = course.simulateModel({ schedule: 'dualpipe', model: text('deepseek-v3') });
  assert.equal(gpipe.memory.gpu_bytes, 80e9);
  assert.equal(gpipe.memory.fits, false);
  assert.equal(dualpipe.memory.fits, true);
  assert.equal(gpipe.ranks, 16); // the file's model.pp
  assert.equal(gpipe.micro_batches, 120); // the file's model.micro_batches
});

test('each rank\'s activation curve is the full report\'s, and its highest point is the rank\'s peak', () => {
  const r = cli('--model', example('small-dense'), '--schedule', 'dualpipe', '--format', 'json');
  assert.equal(r.status, 0, r.stderr);
  const full = JSON.parse(r.stdout);
  const result = course.simulateModel({ schedule: 'dualpipe', model: text('small-dense') });
  result.per_rank.forEach((rank, i) => {
    const curve = rank.memory_bytes.activation_curve;
    assert.deepEqual(curve, full.per_rank[i].memory_bytes.activation_curve);
    assert.equal(Math.max(...curve.map(([, bytes]) => bytes)), rank.memory_bytes.activations_peak);
    const m = rank.memory_bytes;
    assert.equal(m.total, m.weights + m.gradients + m.optimizer + m.activations_peak);
  });
});

test('micro-batches and layers per stage are taken as the CLI\'s options', () => {
  const r = cli('--model', example('small-dense'), '--schedule', '1f1b', '--micro-batches', '8', '--layers-per-stage', '6,10,10,6', '--format', 'summary');
  assert.equal(r.status, 0, r.stderr);
  const result = course.simulateModel({ schedule: '1f1b', model: text('small-dense'), microBatches: 8, layersPerStage: '6,10,10,6' });
  assert.deepEqual(withoutCurves(result), JSON.parse(r.stdout));
  assert.deepEqual(result.model.layers_per_stage, [6, 10, 10, 6]);
});

test('simulateModel refuses as the CLI does, naming the field, and keeps working', () => {
  const chimera = refusal(() => course.simulateModel({ schedule: 'chimera', model: text('deepseek-v3') }));
  const r = cli('--model', example('deepseek-v3'), '--schedule', 'chimera');
  assert.equal(r.status, 2);
  assert.equal(r.stderr, cliLine(chimera));
  const layers = refusal(() => course.simulateModel({ schedule: '1f1b', model: text('small-dense'), layersPerStage: '6,10,10' }));
  assert.equal(layers.code, cli('--model', example('small-dense'), '--schedule', '1f1b', '--layers-per-stage', '6,10,10').stderr.match(/error\[(\w+)\]/)[1]);
  const bad = refusal(() => course.simulateModel({ schedule: '1f1b', model: '{"cluster": 1}' }));
  assert.equal(bad.field, 'model');
  assert.equal(refusal(() => course.simulateModel(7)).code, 'usage');
  assert.equal(refusal(() => course.simulateModel({ schedule: '1f1b', model: text('small-dense'), microBatches: 'many' })).field, 'micro_batches');
  assert.equal(course.simulateModel({ schedule: '1f1b', model: text('small-dense') }).memory.fits, true);
});

/** The example file as it would be written with model.pp set to `pp` (a temporary copy). */
function withPipelineSize(name, pp) {
  const file = JSON.parse(text(name));
  file.model.pp = pp;
  const dir = mkdtempSync(join(tmpdir(), 'pipesim-model-'));
  const path = join(dir, `${name}-pp${pp}.json`);
  writeFileSync(path, JSON.stringify(file));
  return path;
}

for (const [model, schedule, ranks, microBatches] of [
  ['deepseek-v3', 'dualpipe', 8, 20],
  ['deepseek-v3', '1f1b', 4, 12],
  ['small-dense', 'zb-v', 2, 8],
]) {
  test(`ranks (the page's pipeline size) runs the model as a file with that model.pp would: ${schedule} ${ranks}x${microBatches} on ${model}`, () => {
    const r = cli('--model', withPipelineSize(model, ranks), '--schedule', schedule, '--micro-batches', String(microBatches), '--format', 'summary');
    assert.equal(r.status, 0, r.stderr);
    const result = course.simulateModel({ schedule, model: text(model), ranks, microBatches });
    assert.deepEqual(withoutCurves(result), JSON.parse(r.stdout));
    // The CLI's --ranks is the same rule (core's read_model_file) on the file as it is.
    const flag = cli('--model', example(model), '--ranks', String(ranks), '--schedule', schedule, '--micro-batches', String(microBatches), '--format', 'summary');
    assert.equal(flag.status, 0, flag.stderr);
    assert.deepEqual(withoutCurves(result), JSON.parse(flag.stdout));
    assert.equal(result.ranks, ranks);
    assert.equal(result.micro_batches, microBatches);
    // The same GPUs in fewer stages: every stage holds more layers than at the file's model.pp.
    assert.equal(result.per_rank.length, ranks);
  });
}

test('ranks equal to the file\'s model.pp changes nothing, and ranks the cluster does not divide into are refused naming ranks, as the CLI names --ranks', () => {
  const file = course.simulateModel({ schedule: '1f1b', model: text('deepseek-v3') });
  assert.deepEqual(course.simulateModel({ schedule: '1f1b', model: text('deepseek-v3'), ranks: '16' }), file);
  // 2048 GPUs in 6 stages: the file's rule on cluster.gpus, said of the input that set the size.
  const six = refusal(() => course.simulateModel({ schedule: '1f1b', model: text('deepseek-v3'), ranks: 6 }));
  assert.equal(six.message, "ranks 6 does not divide the model file's cluster.gpus (2048): every pipeline stage needs as many GPUs as the others");
  assert.equal(six.field, 'ranks');
  assert.deepEqual(six.wording, { key: 'model.ranks_divide_gpus', params: { field: 'ranks', ranks: '6', gpus: '2048' } });
  const r = cli('--model', example('deepseek-v3'), '--schedule', '1f1b', '--ranks', '6');
  assert.equal(r.status, 2);
  assert.equal(r.stderr, cliLine({ code: six.code, message: `--${six.message.replaceAll('/ ranks', '/ --ranks')}` }));
  // 2048 / 64 = 32 GPUs a stage, which the file's model.ep (64) does not divide.
  const ep = refusal(() => course.simulateModel({ schedule: '1f1b', model: text('deepseek-v3'), ranks: 64, microBatches: 128 }));
  assert.equal(ep.field, 'ranks');
  assert.deepEqual(ep.wording, { key: 'model.ranks_split_ep', params: { field: 'ranks', ranks: '64', per_stage: '32', ep: '64' } });
  const many = refusal(() => course.simulateModel({ schedule: '1f1b', model: text('deepseek-v3'), ranks: 512 }));
  assert.deepEqual([many.field, many.wording.key], ['ranks', 'model.ranks_range']);
  assert.equal(refusal(() => course.simulateModel({ schedule: '1f1b', model: text('deepseek-v3'), ranks: 'eight' })).field, 'ranks');
  assert.equal(refusal(() => course.simulateModel({ schedule: '1f1b', model: text('deepseek-v3'), ranks: 0 })).field, 'ranks');
  for (const ranks of [-5, 2.5, 1e9, 1e30, NaN, Infinity, {}, [8], '<b>8</b>', '9'.repeat(1 << 20)])
    assert.equal(refusal(() => course.simulateModel({ schedule: '1f1b', model: text('deepseek-v3'), ranks })).field, 'ranks', String(ranks).slice(0, 20));
  assert.equal(course.simulateModel({ schedule: '1f1b', model: text('deepseek-v3'), ranks: 8 }).ranks, 8, 'still working');
  assert.equal(course.simulateModel({ schedule: '1f1b', model: text('deepseek-v3'), ranks: 8 }).ranks, 8);
});
