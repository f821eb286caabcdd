// What the page reads from the engine instead of working it out (issue 20, "the page only presents"):
// the summary's formula verdict, utilisation, peak times and stages held; a refusal's field; the
// table of export formats; the cost parser and the cost bounds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { CLI, loadEngine, refusal } from './engine.mjs';

const engine = await loadEngine();

test('the summary carries formula.agrees and .simulated, utilisation, peak_at and stages, as the CLI report does', () => {
  const run = engine.simulate({ schedule: '1f1b', ranks: 4, microBatches: 8 });
  const s = run.summary;
  assert.equal(s.formula.agrees, true);
  assert.equal(s.formula.simulated, 9);
  assert.equal(s.peak_at, 3);
  assert.deepEqual(s.per_rank.map((r) => r.utilisation), [24 / 33, 24 / 33, 24 / 33, 24 / 33]);
  assert.deepEqual(s.per_rank.map((r) => r.peak_at), [3, 3, 3, 3]);
  assert.deepEqual(s.per_rank[2].stages, [{ phase: 0, stage: 2 }]);
  const cli = JSON.parse(execFileSync(CLI, ['simulate', '--schedule', '1f1b', '--ranks', '4', '--micro-batches', '8', '--format', 'summary'], { encoding: 'utf8' }));
  assert.deepEqual(cli.formula, s.formula);
  assert.deepEqual(cli.per_rank, s.per_rank);
  const comm = engine.simulate({ schedule: '1f1b', ranks: 4, microBatches: 8, cost: 'F=1,B=2,W=1,comm=1' }).summary.formula;
  assert.equal(comm.agrees, false);
});

test('DualPipe rank 0 holds stage 0 of direction 0 and stage 3 of direction 1', () => {
  const s = engine.simulate({ schedule: 'dualpipe', ranks: 4, microBatches: 8 }).summary;
  assert.deepEqual(s.per_rank[0].stages, [{ phase: 0, stage: 0 }, { phase: 1, stage: 3 }]);
});

test('a refusal carries the field it is about, and the module keeps working', () => {
  const cases = [
    [{ schedule: 'dualpipe', ranks: 7, microBatches: 20 }, 'ranks'],
    [{ schedule: 'dualpipe', ranks: 8, microBatches: 7 }, 'micro_batches'],
    [{ schedule: 'interleaved-1f1b', ranks: 4, microBatches: 8, virtualStages: 1 }, 'virtual_stages'],
    [{ schedule: 'nope' }, 'schedule'],
    [{ ranks: 'abc' }, 'ranks'],
    [{ microBatches: 2.5 }, 'micro_batches'],
    [{ cost: 'F=x' }, 'cost.F'],
    [{ cost: 'F=1,B=2,FB=9' }, 'cost.FB'],
    [{ cost: 'Q=1' }, 'cost'],
    [{ cost: 7 }, 'cost'],
    [{ schedule: '1f1b', ranks: 4, microBatches: 8, stageCost: ['9:F=2'] }, 'stage_cost'],
    [{ schedule: '1f1b', ranks: 4, microBatches: 8, stageCost: ['zz'] }, 'stage_cost'],
    [{ schedule: '1f1b', ranks: 4, microBatches: 8, rankSpeed: ['7:0.5'] }, 'rank_speed'],
    [{ schedule: '1f1b', ranks: 4, microBatches: 8, modelStages: -1 }, 'model_stages'],
    [{ schedule: 'custom', customSchedule: '0F0,0X0' }, 'custom_schedule'],
  ];
  for (const [request, field] of cases) {
    const e = refusal(() => engine.simulate(request));
    assert.equal(e.field, field, `${JSON.stringify(request)}: ${e.message}`);
  }
  // A refusal about no one field has none.
  assert.equal('field' in refusal(() => engine.simulate(null)), false);
  assert.equal(engine.simulate({}).summary.makespan, 66);
});

test('exportFormats() is the core table, and exportText takes each of its names', () => {
  const formats = engine.exportFormats();
  assert.deepEqual(formats.map((f) => f.name), ['svg', 'csv', 'chrome-trace', 'json', 'actions']);
  assert.deepEqual(formats[2], { name: 'chrome-trace', extension: 'trace.json', mimeType: 'application/json', label: 'Chrome trace (Perfetto)' });
  for (const f of formats) assert.ok(engine.exportText({ schedule: '1f1b', ranks: 2, microBatches: 2 }, f.name, 0).text.length > 0, f.name);
  const e = refusal(() => engine.exportText({}, 'png', 0));
  assert.equal(e.message, "export format must be one of svg|csv|chrome-trace|json|actions, got 'png'");
  assert.equal(e.field, 'format');
});

test('parseCosts is the CLI parser: FB defaults to F + B, and a refusal names the cost', () => {
  assert.deepEqual(engine.parseCosts('F=2,b=3,W=1'), { F: 2, B: 3, W: 1, FB: 5, comm: 0 });
  assert.deepEqual(engine.parseCosts(''), { F: 1, B: 2, W: 1, FB: 3, comm: 0 });
  assert.deepEqual(engine.parseCosts('F&B=2.5,c=0.5'), { F: 1, B: 2, W: 1, FB: 2.5, comm: 0.5 });
  for (const [text, field] of [['F=abc', 'cost.F'], ['FB=1', 'cost.FB'], ['W=3', 'cost.W'], ['comm=-1', 'cost.comm'], ['F', 'cost'], ['Z=1', 'cost']]) {
    const e = refusal(() => engine.parseCosts(text));
    assert.equal(e.code, text === 'Z=1' ? 'unknown_name' : 'bad_value', text);
    assert.equal(e.field, field, text);
  }
  assert.equal(refusal(() => engine.parseCosts(3)).field, 'cost');
});

test('readCosts gives the values a text writes, only its syntax checked, for sliders while the text is refused', () => {
  assert.deepEqual(engine.readCosts('F=1,B=6,W=1,FB=3'), { F: 1, B: 6, W: 1, FB: 3, comm: 0 });
  assert.equal(refusal(() => engine.parseCosts('F=1,B=6,W=1,FB=3')).field, 'cost.FB');
  assert.equal(refusal(() => engine.readCosts('F=abc')).field, 'cost.F');
});

test('costBounds gives the range of a cost and FB within [max(F,B), F+B]', () => {
  assert.deepEqual(engine.costBounds(1, 2), { min: 1e-6, max: 1e12, fbMin: 2, fbMax: 3 });
  assert.deepEqual(engine.costBounds(3, 0.5), { min: 1e-6, max: 1e12, fbMin: 3, fbMax: 3.5 });
  assert.equal(refusal(() => engine.costBounds('1', 2)).field, 'cost.F');
  assert.equal(refusal(() => engine.costBounds(1, NaN)).field, 'cost.B');
});
