// Every hostile query string of tests/web/fixtures/hostile_urls.mjs, in Node: the address read as the
// page reads it (state/url_adapter.ts), the request made of it as the page makes it (model/request.ts,
// model/module_request.ts), and the built WebAssembly module asked: each is refused with the expected
// reason, or ignored (Fig. 5 runs, makespan 66). What only a browser shows (the refusal in the error
// readout, nothing injected into the page, the next input simulating) is visited in Chromium for one
// case of each class and outcome (tests/browser/hostile.test.mjs).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';
import { loadEngine } from '../wasm/engine.mjs';
import { urlCases } from './fixtures/hostile_urls.mjs';

const { readState } = await loadWebModule('state/url_adapter');
const { requestOf } = await loadWebModule('model/request');
const { moduleRequest } = await loadWebModule('model/module_request');
const engine = await loadEngine();
const traits = new Map(engine.schedules().map((s) => [s.name, s]));

/** What the page's run of the chosen schedule gives: its makespan, or the engine's refusal. */
function outcome(query) {
  const state = readState(query);
  const request = requestOf(state, state.schedule, traits.get(state.schedule));
  try {
    return { makespan: engine.simulate(moduleRequest(request)).summary.makespan };
  } catch (e) {
    if (e?.name !== 'PipesimError') throw e;
    return { refusal: e.message };
  }
}

test('every hostile query string is refused with its reason or ignored, as the page would ask the engine', () => {
  const counts = {};
  const wrong = [];
  for (const [cls, query, refusal] of urlCases()) {
    const label = `${cls} ${query.slice(0, 120)}${query.length > 120 ? `... (${query.length} chars)` : ''}`;
    const got = outcome(query);
    if (refusal && !(got.refusal !== undefined && refusal.test(got.refusal))) wrong.push(`${label}: expected a refusal matching ${refusal}, got ${JSON.stringify(got).slice(0, 300)}`);
    if (!refusal && got.makespan !== 66) wrong.push(`${label}: expected Fig. 5 (makespan 66), got ${JSON.stringify(got).slice(0, 300)}`);
    counts[cls] = (counts[cls] ?? 0) + 1;
  }
  assert.deepEqual(wrong, []);
  assert.equal(engine.broken ?? false, false);
  console.log(`hostile URL cases per class: ${JSON.stringify(counts)}`);
});
