// Reference timing through the WebAssembly module: the same JSON as the CLI, each op's wait as typed
// arrays, and a refused timing name leaves the module usable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, loadEngine } from './engine.mjs';

const engine = await loadEngine();

test('wasm reference timing equals the CLI under every send semantics', () => {
  for (const sends of ['rendezvous', 'eager', 'async']) {
    const req = { schedule: 'dualpipev', ranks: 2, microBatches: 4, cost: 'F=1,B=2,W=1,FB=3,comm=1', timing: 'reference', sends };
    const native = spawnSync(CLI, ['simulate', '--schedule', 'dualpipev', '--ranks', '2', '--micro-batches', '4', '--cost', req.cost,
      '--timing', 'reference', '--sends', sends, '--format', 'json'], { encoding: 'utf8' });
    assert.equal(native.status, 0, native.stderr);
    assert.deepEqual(JSON.parse(engine.simulateJson(req, 'json').json), JSON.parse(native.stdout));
  }
});

test('wasm simulate returns each op\'s wait: rank 0\'s step-3 W of DualPipeV 2 x 4 waits 2 for an unused receive', () => {
  const r = engine.simulate({ schedule: 'dualpipev', ranks: 2, microBatches: 4, cost: 'F=1,B=2,W=1,FB=3,comm=1', timing: 'reference' });
  assert.equal(r.summary.timing, 'reference');
  assert.equal(r.summary.makespan, 35);
  const w = 5; // rank 0's sixth op
  assert.equal(r.ops.waitUnusedReceive[w], 2);
  assert.equal(r.ops.waitUsedReceive[w], 0);
  assert.equal(r.ops.waitSend[w], 0);
  assert.equal(r.ops.waitOnAction[w], 1); // RECV_F
  assert.equal(r.ops.waitOnStage[w], 3);
  assert.equal(r.ops.waitOnMb[w], 1);
  assert.equal(r.ops.waitPeer[w], 1);
  const dataflow = engine.simulate({ schedule: 'dualpipev', ranks: 2, microBatches: 4, cost: 'F=1,B=2,W=1,FB=3,comm=1' });
  assert.equal(dataflow.summary.timing, 'dataflow');
  assert.equal(dataflow.ops.waitSend, undefined);
});

test('a bad timing or send name is refused naming the field, and the module keeps working', () => {
  assert.throws(() => engine.simulate({ schedule: 'dualpipe', ranks: 4, microBatches: 8, timing: 'ideal' }),
    (e) => e.name === 'PipesimError' && e.code === 'unknown_name' && e.message === "timing must be dataflow or reference (got 'ideal')");
  assert.throws(() => engine.simulate({ schedule: 'dualpipe', ranks: 4, microBatches: 8, timing: 'reference', sends: 'nccl' }),
    (e) => e.code === 'unknown_name' && e.message === "sends must be rendezvous, eager or async (got 'nccl')");
  assert.equal(engine.simulate({ schedule: 'dualpipe', ranks: 4, microBatches: 8 }).summary.makespan, 26);
});

test('sends without reference timing is refused as the CLI refuses --sends, naming the field', () => {
  for (const timing of [undefined, 'dataflow']) {
    assert.throws(() => engine.simulate({ schedule: 'dualpipe', ranks: 4, microBatches: 8, timing, sends: 'eager' }),
      (e) => e.name === 'PipesimError' && e.code === 'usage' && e.field === 'sends' &&
        e.message === "sends applies only to timing: 'reference'");
  }
  const cli = spawnSync(CLI, ['simulate', '--schedule', 'dualpipe', '--ranks', '4', '--micro-batches', '8', '--sends', 'eager'],
    { encoding: 'utf8' });
  assert.equal(cli.status, 2);
  assert.equal(cli.stderr, 'pipesim: error[usage]: --sends applies only to --timing reference\n');
  const reference = engine.simulate({ schedule: 'dualpipe', ranks: 4, microBatches: 8, timing: 'reference', sends: 'eager' });
  assert.equal(reference.summary.timing, 'reference');
  assert.deepEqual(Object.keys(reference.summary.waits), ['send', 'unused_receive', 'used_receive']);
});
