// acceptedValues: the sizes the page's sliders offer, from the schedules' own checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from './engine.mjs';

const engine = await loadEngine();
const evens = (from, to) => Array.from({ length: (to - from) / 2 + 1 }, (_, k) => from + 2 * k);

test('DualPipe at 8 ranks accepts the even micro-batch counts from 16 to 128: 57 of 128', () => {
  const { values } = engine.acceptedValues({ schedule: 'dualpipe', ranks: 8, microBatches: 20 }, 'microBatches', 128);
  assert.ok(values instanceof Int32Array);
  assert.deepEqual([...values], evens(16, 128));
});

test('every value offered runs and every value left out is refused', () => {
  for (const schedule of ['gpipe', '1f1b', 'interleaved-1f1b', 'zb-h1', 'zb-h2', 'zb-v', 'dualpipe', 'dualpipev', 'chimera']) {
    const base = { schedule, ranks: 4, virtualStages: schedule === 'interleaved-1f1b' ? 2 : 1, cost: 'F=1,B=2,W=1,FB=3' };
    const offered = new Set(engine.acceptedValues({ ...base, microBatches: 8 }, 'microBatches', 24).values);
    for (let m = 1; m <= 24; m++) {
      let ran = true;
      try {
        engine.simulate({ ...base, microBatches: m });
      } catch (e) {
        assert.equal(e.name, 'PipesimError');
        ran = false;
      }
      assert.equal(ran, offered.has(m), `${schedule} with ${m} micro-batches`);
    }
  }
});

test('an unknown size field or schedule is a PipesimError, and the module keeps working', () => {
  assert.throws(() => engine.acceptedValues({ schedule: 'dualpipe', ranks: 8 }, 'stages', 8), { name: 'PipesimError', code: 'unknown_name', message: "size field must be one of ranks|microBatches|virtualStages, got 'stages'" });
  assert.throws(() => engine.acceptedValues({ schedule: 'nope' }, 'ranks', 8), { name: 'PipesimError', code: 'unknown_name' });
  assert.deepEqual([...engine.acceptedValues({ schedule: 'dualpipe', microBatches: 20 }, 'ranks', 32).values], evens(2, 10));
});
