// The per-stage cost table's plain logic (web/src/model/stage_cost_cells.ts): the page's stageCost
// text read as one row of cells per stage and written back, the same entries --stage-cost takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModule } from './load.mjs';

const { tableOf, textOf, withCell, STAGE_COST_KEYS } = await loadWebModule('model/stage_cost_cells');

const empty = { F: '', B: '', W: '', FB: '', comm: '' };

test('the columns are the keys --stage-cost takes, in a fixed order', () => {
  assert.deepEqual(STAGE_COST_KEYS, ['F', 'B', 'W', 'FB', 'comm']);
});

test('an empty text is a table of empty cells, one row per stage', () => {
  assert.deepEqual(tableOf('', 3), { rows: [empty, empty, empty], kept: [] });
  assert.deepEqual(tableOf('  ;; ', 0), { rows: [], kept: [] });
});

test('first and last name stage 0 and the last stage; indices name themselves', () => {
  const { rows, kept } = tableOf('first:F=2,B=4; last:FB=6; 1:W=0.5,comm=1', 4);
  assert.deepEqual(kept, []);
  assert.deepEqual(rows[0], { ...empty, F: '2', B: '4' });
  assert.deepEqual(rows[1], { ...empty, W: '0.5', comm: '1' });
  assert.deepEqual(rows[2], empty);
  assert.deepEqual(rows[3], { ...empty, FB: '6' });
});

test('keys are read whatever their case, and a later entry for the same cell wins', () => {
  const { rows } = tableOf('0:f=1,fb=2; first:F=3', 2);
  assert.deepEqual(rows[0], { ...empty, F: '3', FB: '2' });
});

test('entries the table cannot show are kept as typed, for the engine to refuse', () => {
  const { rows, kept } = tableOf('9:F=2; nonsense; 1:X=3; 1:F=; 0:F=1', 2);
  assert.deepEqual(kept, ['9:F=2', 'nonsense', '1:X=3', '1:F=']);
  assert.deepEqual(rows[0], { ...empty, F: '1' });
  assert.equal(textOf({ rows, kept }), '0:F=1; 9:F=2; nonsense; 1:X=3; 1:F=');
});

test('the table is written as one entry per stage with a cell set, in stage and column order', () => {
  const rows = [{ ...empty, FB: '5', F: '2' }, empty, { ...empty, comm: '1', B: '4' }];
  assert.equal(textOf({ rows, kept: [] }), '0:F=2,FB=5; 2:B=4,comm=1');
  assert.equal(textOf({ rows: [empty, empty], kept: [] }), '');
});

test('editing a cell rewrites the text with that cell set; clearing it gives the uniform cost back', () => {
  assert.equal(withCell('', 4, 3, 'F', '2'), '3:F=2');
  assert.equal(withCell('3:F=2', 4, 3, 'B', ' 4 '), '3:F=2,B=4');
  assert.equal(withCell('last:F=2,B=4', 4, 3, 'F', ''), '3:B=4');
  assert.equal(withCell('3:B=4', 4, 3, 'B', ''), '');
  // A stage outside the table leaves the text as it was.
  assert.equal(withCell('0:F=1', 2, 5, 'F', '3'), '0:F=1');
});

test('a table read from its own text gives the same text back', () => {
  for (const text of ['0:F=2,B=4', '1:W=1; 3:FB=2.5,comm=0.25', '']) assert.equal(textOf(tableOf(text, 4)), text);
});
