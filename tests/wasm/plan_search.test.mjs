// The planner's search in the course module, in steps (planSearchBegin / planSearchStep /
// planSearchResult): the same ranked configurations as `pipesim plan --search --format json`, its
// progress counted, and bad input refused with a PipesimError naming the field, the module working on.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CLI, loadCourse, refusal } from './engine.mjs';

const example = (name) => new URL(`../../core/data/plan_examples/${name}`, import.meta.url);
const course = await loadCourse();

test('the search stepped in the module ranks what pipesim plan --search ranks', () => {
  for (const name of ['small-dense.json', 'deepseek-v3.json']) {
    const begun = course.planSearchBegin(readFileSync(example(name), 'utf8'));
    assert.equal(begun.done, 0);
    let progress = begun;
    let steps = 0;
    while (progress.done < progress.total) {
      progress = course.planSearchStep(10);
      steps++;
      assert.equal(progress.done, Math.min(10 * steps, begun.total));
    }
    const native = spawnSync(CLI, ['plan', '--input', example(name).pathname, '--search', '--format', 'json'], { encoding: 'utf8' });
    assert.equal(native.status, 0, native.stderr);
    const result = course.planSearchResult(20);
    assert.equal(result.done, result.total);
    const { done, total, ...same } = result;
    assert.deepEqual(same, JSON.parse(native.stdout), name);
  }
});

test("the module's plan prices each schedule as its search prices that configuration: makespan, all-reduce, iteration", () => {
  for (const name of ['small-dense.json', 'moe-one-node-ep.json']) {
    const input = readFileSync(example(name), 'utf8');
    const { model } = JSON.parse(input);
    const plan = course.plan(input, 'en');
    const begun = course.planSearchBegin(input, { pp: [model.pp], microBatchSize: [model.micro_batch_size ?? 1], virtualStages: [2], lighterEnds: [0] });
    course.planSearchStep(begun.total);
    const { best } = course.planSearchResult(100);
    assert.equal(best.length, plan.candidates.length, name);
    for (const c of plan.candidates) {
      const row = best.find((p) => p.schedule === c.schedule);
      assert.ok(row, `${name}: ${c.schedule} in the search`);
      assert.ok(c.allreduce_ms > 0, `${name}: ${c.schedule} has replicas to reduce with`);
      assert.deepEqual([c.makespan_ms, c.allreduce_ms, c.iteration_ms], [row.makespan_ms, row.allreduce_ms, row.iteration_ms], `${name}: ${c.schedule}`);
      assert.equal(c.iteration_ms, c.makespan_ms + c.allreduce_ms);
    }
    assert.deepEqual(plan.candidates.map((c) => c.schedule), best.map((p) => p.schedule), `${name}: the same ranking`);
  }
});

test('the search at pipeline size 1 alone is one row without pipeline parallelism', () => {
  const begun = course.planSearchBegin(readFileSync(example('small-dense.json'), 'utf8'), { pp: [1] });
  assert.equal(begun.total, 1);
  course.planSearchStep(1);
  const { best } = course.planSearchResult(10);
  assert.equal(best.length, 1);
  assert.equal(best[0].pipeline, false);
  assert.equal(best[0].pp, 1);
  assert.equal(best[0].iteration_ms, best[0].makespan_ms + best[0].allreduce_ms);
});

test('the search refuses bad input naming the field, and the module keeps working', () => {
  const input = readFileSync(example('small-dense.json'), 'utf8');
  const bad = JSON.parse(input);
  bad.model.layers = 0;
  const layers = refusal(() => course.planSearchBegin(JSON.stringify(bad)));
  assert.equal(layers.message, 'plan input: model.layers must be a whole number from 1 to 100000, got 0');
  assert.equal(layers.code, 'bad_value');
  // A failed begin leaves no search under way.
  assert.equal(refusal(() => course.planSearchStep(1)).message, 'no plan search under way: call planSearchBegin first');
  const pp = refusal(() => course.planSearchBegin(input, { pp: [0] }));
  assert.equal(pp.message, 'plan search: pp must list whole numbers from 1 to 4096, got 0');
  assert.equal(refusal(() => course.planSearchBegin(input, { virtualStages: 'two' })).field, 'virtual_stages');
  assert.equal(refusal(() => course.planSearchBegin(input, { lighterEnds: [0.5] })).message, 'plan search: lighter_ends must list whole numbers, got 0.5');
  course.planSearchBegin(input, { pp: [2] });
  assert.equal(refusal(() => course.planSearchStep(0)).field, 'count');
  assert.equal(refusal(() => course.planSearchResult('all')).field, 'keep');
  const after = course.planSearchStep(1000);
  assert.equal(after.done, after.total);
  assert.ok(course.planSearchResult(5).best.length > 0);
});
