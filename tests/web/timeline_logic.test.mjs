// The timeline's plain arithmetic: which ops a window shows, the aggregated picture of a large run,
// each rank's phases and a micro-batch's path (aggregate.ts, schedule_player.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';
import { columnRun, KIND } from './fixtures/column_run.mjs';

// aggregateRows writes an ImageData, which Node lacks: the same shape, for the test.
globalThis.ImageData ??= class {
  constructor(width, height) {
    this.width = width;
    this.height = height;
    this.data = new Uint8ClampedArray(width * height * 4);
  }
};

const { visibleRange, typicalOpDuration, aggregateRows } = await loadWebModule('timeline/aggregate');
const { rankPhases, microBatchPath } = await loadWebModule('timeline/schedule_player');

/** A run in the engine's column form (fixtures/column_run.mjs) from per-rank lists of [kind, mb, start,
 *  end] (phase 0; no wait columns, as dataflow timing gives). */
const run = (perRank) =>
  columnRun(perRank.map((list) => list.map(([kind, mb, start, end]) => ({ kind: KIND[kind], mb, start, end }))), { waits: false });

// 1F1B on 2 ranks, 2 micro-batches, F=1, B=2.
const oneFOneB = run([
  [['F', 0, 0, 1], ['F', 1, 1, 2], ['B', 0, 4, 6], ['B', 1, 7, 9]],
  [['F', 0, 1, 2], ['B', 0, 2, 4], ['F', 1, 4, 5], ['B', 1, 5, 7]],
]);
// Its bubble split as core writes it in summary.per_rank[r].bubble_split: [from, to, idle] of the fill,
// warm-up, steady, cool-down and drain (rank 0's steady state is empty: its last forward ends before
// its first backward starts).
const names = ['fill', 'warm-up', 'steady', 'cool-down', 'drain'];
const split = (phases) => ({ phases: phases.map(([from, to, idle], i) => ({ phase: names[i], from, to, idle })) });
oneFOneB.summary.per_rank = [
  { rank: 0, bubble_split: split([[0, 0, 0], [0, 4, 2], [4, 4, 0], [4, 9, 1], [9, 9, 0]]) },
  { rank: 1, bubble_split: split([[0, 1, 1], [1, 2, 0], [2, 5, 0], [5, 7, 0], [7, 9, 2]]) },
];

test('a window shows the ops of a rank that overlap it, found by binary search', () => {
  assert.deepEqual(visibleRange(oneFOneB, 0, 0, 9), [0, 4]);
  assert.deepEqual(visibleRange(oneFOneB, 0, 2.5, 3.5), [2, 2]); // inside the rank's bubble: none
  assert.deepEqual(visibleRange(oneFOneB, 0, 1.5, 4), [1, 3]); // touching the B's start counts
  assert.deepEqual(visibleRange(oneFOneB, 1, 4.5, 4.6), [6, 7]);
});

test('the typical op is the mean op duration', () => {
  assert.equal(typicalOpDuration(oneFOneB), 12 / 8);
});

test('an aggregated column takes the dominant kind\'s colour, faded to idle by the column\'s idle share', () => {
  const single = run([[['F', 0, 0, 1], ['B', 0, 1, 2.5]]]);
  const colours = [[200, 0, 0], [0, 0, 0], [0, 200, 0], [0, 0, 0], [0, 0, 200], [0, 0, 0]];
  const image = aggregateRows(single, 0.5, 1, 4, 0, 4, colours, [100, 100, 100]);
  const px = (c) => [...image.data.slice(c * 4, c * 4 + 4)];
  assert.deepEqual(px(0), [200, 0, 0, 255]); // all forward
  assert.deepEqual(px(1), [0, 200, 0, 255]); // all backward
  assert.deepEqual(px(2), [50, 150, 50, 255]); // half backward, half idle
  assert.deepEqual(px(3), [100, 100, 100, 255]); // idle
});

test('each rank\'s phases are core\'s split: warm-up from its first op, cool-down with the drain to the makespan', () => {
  const phases = rankPhases(oneFOneB);
  assert.deepEqual(phases[0], { rank: 0, start: 0, steadyFrom: 4, steadyTo: 4, end: 9, idle: [2, 0, 1] });
  assert.deepEqual(phases[1], { rank: 1, start: 1, steadyFrom: 2, steadyTo: 5, end: 9, idle: [0, 0, 2] });
});

test('the player works out no phase itself: it shows what core wrote, and none where core wrote none', () => {
  const moved = { ...oneFOneB, summary: { ...oneFOneB.summary, per_rank: [{ rank: 1, bubble_split: split([[0, 1, 1], [1, 3, 0.5], [3, 5, 0], [5, 8, 0], [8, 9, 2.5]]) }] } };
  assert.deepEqual(rankPhases(moved), [{ rank: 1, start: 1, steadyFrom: 3, steadyTo: 5, end: 9, idle: [0.5, 0, 2.5] }]);
  assert.deepEqual(rankPhases({ ...oneFOneB, summary: { ranks: 2, makespan: 9 } }), []);
});

test('a micro-batch\'s path is its forwards and backwards in time order', () => {
  assert.deepEqual(microBatchPath(oneFOneB, 0, null), [0, 4, 5, 2]);
  assert.deepEqual(microBatchPath(oneFOneB, 1, 0), [1, 6, 7, 3]);
});
