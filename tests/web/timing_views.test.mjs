// The page's timing views in plain arithmetic (issue 15): the waits of a run drawn aggregated, summed
// per pixel column as its ops are (timeline/aggregate.ts), and Compare's pairing of one schedule's
// makespans under both timings (model/timings.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';
import { columnRun } from './fixtures/column_run.mjs';

const { WAIT_LAYERS, waitColumns, waitRuns, waitsInWindow } = await loadWebModule('timeline/aggregate');
const { bothTimings, otherTiming } = await loadWebModule('model/timings');

/** A run in the engine's column form (fixtures/column_run.mjs) from per-rank lists of [start, end, used,
 *  unused, send] (forward ops; the last three are the op's wait layers, as reference timing reports
 *  them). `waits: false` gives the dataflow form, without the wait columns. */
const run = (perRank, waits = true) =>
  columnRun(perRank.map((list) => list.map(([start, end, used = 0, unused = 0, send = 0]) => ({ start, end, used, unused, send }))), { waits });

// Rank 0: F0 on [0, 1], then F1 on [3.25, 4.25] after waiting 0.5 on its own receive, 1.25 on a
// receive it does not use and 0.25 on a send: laid out before it as [1.25, 1.75), [1.75, 3), [3, 3.25).
// Rank 1 never waits.
const waited = run([
  [[0, 1], [3.25, 4.25, 0.5, 1.25, 0.25]],
  [[1, 2], [2, 3]],
]);

test('waits are summed per pixel column, layer by layer, where the timeline draws them', () => {
  assert.equal(WAIT_LAYERS, 3);
  // Five columns of one time unit over [0, 5].
  assert.deepEqual([...waitColumns(waited, 0, 5, 0, 5)], [
    0, 0, 0, // [0, 1): F0
    0.5, 0.25, 0, // [1, 2): the used receive, then the start of the unused one
    0, 1, 0, // [2, 3): the unused receive
    0, 0, 0.25, // [3, 4): the send, then F1
    0, 0, 0, // [4, 5)
  ]);
  assert.deepEqual([...waitColumns(waited, 1, 5, 0, 5)], new Array(15).fill(0));
});

test('a zoomed window keeps the waits it shows, in columns of its own width', () => {
  // Four columns of a quarter over [1.5, 2.5]: the used receive ends at 1.75.
  assert.deepEqual([...waitColumns(waited, 0, 4, 1.5, 2.5)], [1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0]);
});

test('a run timed as dataflow has no wait columns', () => {
  assert.equal(waitColumns(run([[[0, 1], [3, 4]]], false), 0, 4, 0, 4), null);
});

test('each column is hatched with its dominant layer, as opaque as its wait share rounded up to a quarter, at least half', () => {
  const columns = waitColumns(waited, 0, 5, 0, 5);
  assert.deepEqual(waitRuns(columns, 5), [
    { first: 1, end: 2, layer: 0, alpha: 0.75 },
    { first: 2, end: 3, layer: 1, alpha: 1 },
    { first: 3, end: 4, layer: 2, alpha: 0.5 }, // a quarter of the column: the faintest hatching
  ]);
});

test('neighbouring columns hatched alike are one stretch (one canvas call)', () => {
  // Ten columns of half a unit over [0, 5]: the used receive covers columns 2.5..3.5, the unused one
  // 3.5..6, the send 6..6.5.
  assert.deepEqual(waitRuns(waitColumns(waited, 0, 10, 0, 5), 10), [
    { first: 2, end: 3, layer: 0, alpha: 0.5 },
    { first: 3, end: 4, layer: 0, alpha: 1 }, // half used, half unused: the first of equals
    { first: 4, end: 6, layer: 1, alpha: 1 },
    { first: 6, end: 7, layer: 2, alpha: 0.5 },
  ]);
});

test('hovering a column reports its waits: each layer, the total and the dominant one', () => {
  assert.deepEqual(waitsInWindow(waited, 0, 1, 2), { layers: [0.5, 0.25, 0], total: 0.75, dominant: 0 });
  assert.deepEqual(waitsInWindow(waited, 0, 0, 5), { layers: [0.5, 1.25, 0.25], total: 2, dominant: 1 });
  assert.deepEqual(waitsInWindow(waited, 1, 0, 5), { layers: [0, 0, 0], total: 0, dominant: -1 });
});

test('a window between two ops still sees the wait of the op after it', () => {
  // No op of rank 0 overlaps [2, 3]; F1, which starts after it, waited there.
  assert.deepEqual(waitsInWindow(waited, 0, 2, 3), { layers: [0, 1, 0], total: 1, dominant: 1 });
});

test('Compare asks for the other timing than the page\'s', () => {
  assert.equal(otherTiming('dataflow'), 'reference');
  assert.equal(otherTiming('reference'), 'dataflow');
});

test('both timings pair the two runs\' makespans and state the reference\'s gap', () => {
  const d = { summary: { makespan: 33.5, timing: 'dataflow' } };
  const r = { summary: { makespan: 37.25, timing: 'reference' } };
  assert.deepEqual(bothTimings(d, r), { dataflow: { makespan: 33.5 }, reference: { makespan: 37.25 }, gap: 3.75 });
});

test('a schedule the engine keeps in dataflow under reference timing has no reference column', () => {
  const d = { summary: { makespan: 24, timing: 'dataflow' } };
  assert.deepEqual(bothTimings(d, { summary: { makespan: 24, timing: 'dataflow' } }), { dataflow: { makespan: 24 }, reference: { noReference: true }, gap: null });
});

test('a timing the engine refuses keeps its refusal and leaves no gap', () => {
  const d = { summary: { makespan: 24, timing: 'dataflow' } };
  assert.deepEqual(bothTimings(d, { error: 'deadlock: rank 0 waits for RECV_F1' }), {
    dataflow: { makespan: 24 },
    reference: { error: 'deadlock: rank 0 waits for RECV_F1' },
    gap: null,
  });
});
