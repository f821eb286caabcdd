// Every hostile import of tests/web/fixtures/hostile_imports.mjs, in Node: the text given as the custom
// schedule the way the page gives a pasted or picked file (its state's `custom` text, the request made
// of it by model/request.ts), and the built WebAssembly module asked: each is refused with the expected
// reason, or is a valid schedule after all. What only a browser shows (the refusal in the error readout,
// nothing injected, the paste box and the file picker) is imported in Chromium for one case of each
// class and outcome (tests/browser/hostile.test.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { importCases, largeImportCases, VALID } from './fixtures/hostile_imports.mjs';

const { readState } = await loadWebModule('state/url_adapter');
const { requestOf } = await loadWebModule('model/request');
const { moduleRequest } = await loadWebModule('model/module_request');
const engine = await loadEngine();
const traits = new Map(engine.schedules().map((s) => [s.name, s]));
const custom = engine.schedules().find((s) => s.takes_text).name;

/** What the page's run of `text` as the custom schedule gives: its makespan, or the engine's refusal. */
function outcome(text) {
  const state = { ...readState(`?schedule=${custom}`), custom: text };
  try {
    return { makespan: engine.simulate(moduleRequest(requestOf(state, state.schedule, traits.get(state.schedule)))).summary.makespan };
  } catch (e) {
    if (e?.name !== 'PipesimError') throw e;
    return { refusal: e.message };
  }
}

function check(cases, validMakespan) {
  const wrong = [];
  for (const [cls, text, refusal, makespan = validMakespan] of cases) {
    const label = `${cls} ${JSON.stringify(text.slice(0, 100))} (${text.length} chars)`;
    const got = outcome(text);
    if (refusal && !(got.refusal !== undefined && refusal.test(got.refusal))) wrong.push(`${label}: expected a refusal matching ${refusal}, got ${JSON.stringify(got).slice(0, 300)}`);
    if (!refusal && got.makespan !== makespan) wrong.push(`${label}: expected makespan ${makespan}, got ${JSON.stringify(got).slice(0, 300)}`);
  }
  return wrong;
}

test('the valid schedule of each import format simulates (makespan 6 at F=1, B=2)', () => {
  for (const [format, text] of Object.entries(VALID)) assert.deepEqual(outcome(text), { makespan: 6 }, format);
});

test('every hostile import is refused with its reason, or is a valid schedule after all', () => {
  assert.deepEqual(check(importCases(), 6), []);
});

test('very large imports are refused with their reason, or simulated when within the limits', () => {
  assert.deepEqual(check(largeImportCases(), 6), []);
});
