// One configuration of the planner's search as the page's address (model/plan_link.ts): the URL
// adapter reads back exactly the schedule, sizes and per-stage costs the search timed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';

const { searchPointLink } = await loadWebModule('model/plan_link');
const { readState } = await loadWebModule('state/url_adapter');

const point = {
  schedule: 'zb-v',
  pipeline: true,
  pp: 4,
  micro_batches: 32,
  micro_batch_size: 1,
  virtual_stages: 1,
  lighter_ends: 1,
  layers_per_stage: [3, 5, 5, 5, 5, 5, 5, 3],
  stage_cost_ms: [
    { F: 40.5, B: 81.25, W: 40.125, FB: 121.75, comm: 0.5 },
    ...Array.from({ length: 6 }, () => ({ F: 60, B: 120, W: 60, FB: 180, comm: 0.5 })),
    { F: 55.1, B: 110.2, W: 55.1, FB: 165.3, comm: 0.5 },
  ],
  makespan_ms: 1,
  bubble_fraction: 0,
  allreduce_ms: 0,
  iteration_ms: 1,
  peak_gb: 1,
  fits: true,
};

test('a search row opens the Timeline on its schedule, sizes and every stage\'s costs', () => {
  const state = readState(searchPointLink(point, 'timeline', false));
  assert.equal(state.schedule, 'zb-v');
  assert.equal(state.ranks, '4');
  assert.equal(state.microBatches, '32');
  assert.equal(state.view, 'timeline');
  assert.equal(state.cost, 'F=40.5,B=81.25,W=40.125,FB=121.75,comm=0.5');
  const stages = state.stageCost.split(';');
  assert.equal(stages.length, 8);
  assert.equal(stages[0], '0:F=40.5,B=81.25,W=40.125,FB=121.75,comm=0.5');
  assert.equal(stages[7], '7:F=55.1,B=110.2,W=55.1,FB=165.3,comm=0.5');
});

test('the same row opens Compare, keeps the page\'s language and names virtual stages only when the schedule has them', () => {
  const link = searchPointLink({ ...point, schedule: 'interleaved-1f1b', virtual_stages: 4 }, 'compare', true, new URLSearchParams('lang=zh-CN'));
  const state = readState(link);
  assert.equal(state.view, 'compare');
  assert.equal(state.virtualStages, '4');
  assert.ok(!state.compare.includes('interleaved-1f1b'));
  assert.equal(new URLSearchParams(link).get('lang'), 'zh-CN');
  assert.equal(new URLSearchParams(searchPointLink(point, 'timeline', false)).get('virtual-stages'), null);
});
