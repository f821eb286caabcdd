// The time scale: the one conversion between time and pixels, and the axis's tick step.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';

const { TimeScale, niceStep } = await loadWebModule('base/time_scale');

test('a time scale maps its window onto its pixel range, both ways', () => {
  const scale = new TimeScale(10, 20, 100, 300);
  assert.equal(scale.timeToPx(10), 100);
  assert.equal(scale.timeToPx(15), 200);
  assert.equal(scale.timeToPx(20), 300);
  assert.equal(scale.pxToTime(250), 17.5);
  assert.equal(scale.durationToPx(2), 40);
});

test('the tick step is 1, 2 or 5 times a power of ten, the smallest giving at most the target count', () => {
  assert.equal(niceStep(100, 10), 10);
  assert.equal(niceStep(100, 8), 20);
  assert.equal(niceStep(100, 30), 5);
  assert.equal(niceStep(0.9, 9), 0.1);
  assert.equal(niceStep(7, 0), 10); // a target below one tick counts as one
});
