// Per-stage costs, rank speeds and the same-model basis in the WebAssembly module: the same numbers
// and the same refusals as the CLI, and the module keeps working after a refusal (issue 14).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, cliLine, loadEngine, refusal } from './engine.mjs';

const engine = await loadEngine();

const cli = (args) => spawnSync(CLI, ['simulate', ...args], { encoding: 'utf8' });

const cases = [
  [{ schedule: '1f1b', ranks: 4, microBatches: 4, stageCost: ['last:F=2,B=4,W=2'] }, ['--schedule', '1f1b', '--ranks', '4', '--micro-batches', '4', '--stage-cost', 'last:F=2,B=4,W=2']],
  [{ schedule: '1f1b', ranks: 4, microBatches: 4, rankSpeed: ['3:0.5'] }, ['--schedule', '1f1b', '--ranks', '4', '--micro-batches', '4', '--rank-speed', '3:0.5']],
  [{ schedule: 'dualpipev', ranks: 8, microBatches: 20, cost: 'F=8,B=16,W=8,FB=24', modelStages: 1 }, ['--schedule', 'dualpipev', '--model-cost', 'F=8,B=16,W=8,FB=24']],
  [
    { schedule: 'dualpipev', ranks: 8, microBatches: 20, modelStages: 8, stageCost: ['first:F=2,B=4,W=2,FB=6'] },
    ['--schedule', 'dualpipev', '--model-stages', '8', '--stage-cost', 'first:F=2,B=4,W=2,FB=6'],
  ],
  [
    { schedule: 'dualpipe', ranks: 4, microBatches: 8, stageCost: ['first:F=2,B=4,W=2', '2:comm=0.5'], rankSpeed: ['1:0.8'] },
    ['--schedule', 'dualpipe', '--ranks', '4', '--micro-batches', '8', '--stage-cost', 'first:F=2,B=4,W=2', '--stage-cost', '2:comm=0.5', '--rank-speed', '1:0.8'],
  ],
];

for (const [request, args] of cases) {
  test(`wasm JSON equals the CLI's with per-stage costs: ${JSON.stringify(request)}`, () => {
    const native = cli([...args, '--format', 'json']);
    assert.equal(native.status, 0, native.stderr);
    assert.equal(engine.simulateJson(request, 'json').json + '\n', native.stdout);
  });
}

test('the same model on the same GPUs gives DualPipe 66, DualPipeV 67 and 1F1B 81 at the default preset', () => {
  const makespan = (schedule) => engine.simulate({ schedule, ranks: 8, microBatches: 20, cost: 'F=1,B=2,W=1,FB=3', modelStages: 8 }).summary.makespan;
  assert.deepEqual(['dualpipe', 'dualpipev', '1f1b'].map(makespan), [66, 67, 81]);
  const stageBasis = engine.simulate({ schedule: 'dualpipev', ranks: 8, microBatches: 20, cost: 'F=1,B=2,W=1,FB=3' }).summary;
  assert.equal(stageBasis.makespan, 134);
  assert.equal(stageBasis.cost_basis, 'same-stage-costs');
});

test('bad per-stage input throws the CLI refusal as a PipesimError and leaves the module working', () => {
  const refusals = [
    [{ stageCost: ['8:F=2'] }, ['--stage-cost', '8:F=2']],
    [{ rankSpeed: ['2:0'] }, ['--rank-speed', '2:0']],
    [{ stageCost: ['first:F=1,B=2,FB=4'] }, ['--stage-cost', 'first:F=1,B=2,FB=4']],
    [{ modelStages: 8, stageCost: ['8:F=2'] }, ['--model-stages', '8', '--stage-cost', '8:F=2']],
  ];
  for (const [request, args] of refusals) {
    const e = refusal(() => engine.simulate(request));
    assert.ok(e.code, JSON.stringify(request));
    assert.equal(cliLine(e), cli(args).stderr);
  }
  assert.equal(refusal(() => engine.simulate({ stageCost: 'last:F=2' })).message, 'stageCost must be an array of strings, got a string');
  assert.equal(engine.simulate({}).summary.makespan, 66);
});
