// The rules that tie the page's state together, and the cost helpers of the controls.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadWebModule } from './load.mjs';

const { completePatch, DEFAULT_STATE, APP_STATE_KEYS, scaledStageCost, formatCost } = await loadWebModule('state/page_state');

test('choosing a schedule takes it out of the compared ones', () => {
  assert.deepEqual(completePatch({ ...DEFAULT_STATE, compare: ['1f1b', 'zb-h1'] }, { schedule: 'zb-h1' }), { schedule: 'zb-h1', compare: ['1f1b'] });
  assert.deepEqual(completePatch(DEFAULT_STATE, { schedule: 'gpipe', compare: ['gpipe', 'zb-h2'] }), { schedule: 'gpipe', compare: ['zb-h2'] });
});

test('a change that does not choose a schedule is kept as it is', () => {
  const patch = { ranks: '4' };
  assert.equal(completePatch(DEFAULT_STATE, patch), patch);
});

test('the default state is core\'s first preset, as the CLI lists it: schedule, sizes, costs and compared schedules', () => {
  const cli = fileURLToPath(new URL('../../build/pipesim', import.meta.url));
  const [first] = JSON.parse(execFileSync(cli, ['presets', '--format', 'json'], { encoding: 'utf8' }));
  const { schedule, ranks, microBatches, cost, compare } = DEFAULT_STATE;
  assert.deepEqual(
    { schedule, ranks, microBatches, cost, compare },
    { schedule: first.schedule, ranks: String(first.ranks), microBatches: String(first.micro_batches), cost: first.cost, compare: first.compare },
  );
});

test('the URL state has one key per field of the default state', () => {
  assert.deepEqual(APP_STATE_KEYS, Object.keys(DEFAULT_STATE));
});

test('costs are written with at most six decimals, comm only when not zero', () => {
  assert.equal(formatCost({ F: 1 / 3, B: 2, W: 1, FB: 3, comm: 0 }), 'F=0.333333,B=2,W=1,FB=3');
  assert.equal(formatCost({ F: 1, B: 2, W: 1, FB: 3, comm: 0.25 }), 'F=1,B=2,W=1,FB=3,comm=0.25');
});

test('a preset\'s stage costs scale the costs on screen for each stage named', () => {
  assert.equal(scaledStageCost({ F: 1, B: 2, W: 1, FB: 3, comm: 0 }, ['first', 'last'], 2), 'first:F=2,B=4,W=2,FB=6; last:F=2,B=4,W=2,FB=6');
});
