// The engine request the page and the element make of their settings (model/request.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';

const { requestOf, requestOfCoreRun } = await loadWebModule('model/request');
const { DEFAULT_STATE } = await loadWebModule('state/page_state');

// What the request reads of a registry entry: a plain schedule, one with virtual stages, the one given as text.
const PLAIN = { uses_virtual_stages: false, takes_text: false };
const VIRTUAL = { uses_virtual_stages: true, takes_text: false };
const TEXT = { uses_virtual_stages: false, takes_text: true };

test('the default settings make the README\'s Fig. 5 request, sizes as typed', () => {
  assert.deepEqual(requestOf(DEFAULT_STATE, 'dualpipe', PLAIN), {
    schedule: 'dualpipe',
    ranks: '8',
    microBatches: '20',
    virtualStages: 1,
    cost: 'F=1,B=2,W=1,FB=3',
    customSchedule: undefined,
    timing: 'dataflow',
  });
});

test('the send semantics are asked for only with reference timing', () => {
  assert.equal('sends' in requestOf({ ...DEFAULT_STATE, sends: 'eager' }, 'dualpipe', PLAIN), false);
  assert.equal(requestOf({ ...DEFAULT_STATE, timing: 'reference', sends: 'eager' }, 'dualpipe', PLAIN).sends, 'eager');
});

test('virtual stages are asked for only of a schedule that has them', () => {
  const state = { ...DEFAULT_STATE, virtualStages: '3' };
  assert.equal(requestOf(state, 'interleaved', VIRTUAL).virtualStages, '3');
  assert.equal(requestOf(state, 'gpipe', PLAIN).virtualStages, 1);
});

test('per-stage costs and per-rank speeds are split at ";" and empty entries dropped', () => {
  const r = requestOf({ ...DEFAULT_STATE, stageCost: ' first:F=2 ;; last:B=4; ', rankSpeed: '3:0.5' }, 'gpipe', PLAIN);
  assert.deepEqual(r.stageCost, ['first:F=2', 'last:B=4']);
  assert.deepEqual(r.rankSpeed, ['3:0.5']);
  assert.equal('stageCost' in requestOf(DEFAULT_STATE, 'gpipe', PLAIN), false);
});

test('on the same-model basis the model is cut into as many stages as there are ranks', () => {
  assert.equal(requestOf(DEFAULT_STATE, 'zb-h1', PLAIN, true).modelStages, 8);
  assert.equal('modelStages' in requestOf({ ...DEFAULT_STATE, ranks: '0' }, 'zb-h1', PLAIN, true), false);
  assert.equal('modelStages' in requestOf({ ...DEFAULT_STATE, ranks: '2.5' }, 'zb-h1', PLAIN, true), false);
  assert.equal('modelStages' in requestOf({ ...DEFAULT_STATE, schedule: 'custom' }, 'custom', TEXT, true), false);
});

test('a pasted schedule goes with the schedule given as text only, whatever its name; an unknown name is a plain request', () => {
  const state = { ...DEFAULT_STATE, custom: '0: F0 B0' };
  assert.equal(requestOf(state, 'custom', TEXT).customSchedule, '0: F0 B0');
  assert.equal(requestOf(state, '1f1b', PLAIN).customSchedule, undefined);
  assert.equal(requestOf(state, 'my-own', TEXT).customSchedule, '0: F0 B0');
  assert.equal(requestOf(state, 'unknown', undefined).customSchedule, undefined);
  assert.equal(requestOf({ ...state, virtualStages: '3' }, 'unknown', undefined).virtualStages, 1);
});

test('a run core describes becomes a request in the page\'s words, virtual stages only when core gives them', () => {
  assert.deepEqual(requestOfCoreRun({ schedule: 'dualpipev', ranks: 4, micro_batches: 10, virtual_stages: 1 }, 'F=1,B=2'), {
    schedule: 'dualpipev', ranks: 4, microBatches: 10, virtualStages: 1, cost: 'F=1,B=2',
  });
  assert.deepEqual(requestOfCoreRun({ schedule: '1f1b', ranks: 4, micro_batches: 8 }, 'F=1,B=2,W=1,FB=3'), {
    schedule: '1f1b', ranks: 4, microBatches: 8, cost: 'F=1,B=2,W=1,FB=3',
  });
});
