// The course module's simulateModel: a schedule timed with a planner model's per-stage costs and bytes,
// the same JSON as `pipesim simulate --model FILE --format summary`, and the same refusals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { CLI, loadCourse, refusal } from './engine.mjs';

const course = await loadCourse();
const example = new URL('../../core/data/plan_examples/small-dense.json', import.meta.url);
const model = readFileSync(example, 'utf8');

function cli(args) {
  const r = spawnSync(CLI, args, { encoding: 'utf8' });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

test('simulateModel answers as simulate --model does, layers per stage included', () => {
  for (const [schedule, layers] of [['1f1b', ''], ['dualpipev', ''], ['1f1b', '7,9,9,7']]) {
    const args = ['simulate', '--schedule', schedule, '--model', example.pathname, '--format', 'summary'];
    if (layers) args.push('--layers-per-stage', layers);
    const native = cli(args);
    assert.equal(native.status, 0, native.err);
    const wasm = course.simulateModel({ model, schedule, layersPerStage: layers });
    assert.deepEqual(wasm, JSON.parse(native.out), `${schedule} ${layers}`);
  }
  const r = course.simulateModel({ model, schedule: 'dualpipe' });
  assert.equal(r.cost_basis, 'model-file');
  assert.equal(r.ranks, 4);
  assert.equal(r.memory.units, 'bytes');
  assert.ok(r.per_rank.every((rank) => rank.memory_bytes.total > 0));
});

test('simulateModel refuses as the CLI does, and keeps working', () => {
  const wrong = refusal(() => course.simulateModel({ model, schedule: '1f1b', layersPerStage: '8,8,8' }));
  assert.equal(wrong.code, 'bad_value');
  assert.equal(wrong.message, '--layers-per-stage lists 3 stages but 1f1b on 4 ranks has 4 stages');
  assert.match(refusal(() => course.simulateModel({ model: '{', schedule: '1f1b' })).message, /JSON/);
  assert.equal(refusal(() => course.simulateModel(42)).code, 'usage');
  assert.equal(course.simulateModel({ model, schedule: '1f1b' }).schedule, '1f1b');
});
