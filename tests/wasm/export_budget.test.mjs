// Exports measured against the budget (issue 18): one export the module may hand to JavaScript as one
// string is at most 256 MiB. A trace whose op count lets it through the up-front check is refused once
// its exact size is known, and exports just under the budget come whole. (The up-front refusals and
// the largest run are in exports.test.mjs: these two take the longest, so they run beside it.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertStillWorks, loadEngine, refusal } from './engine.mjs';

const engine = await loadEngine();
const stillWorks = () => assertStillWorks(engine);

test('a trace that passes the op count but not the budget is refused with its exact size, after which others export', () => {
  const request = { schedule: 'zb-h1', ranks: 1024, microBatches: 384 };  // 1,179,648 ops: at least 168.8 MiB as a trace
  const e = refusal(() => engine.exportText(request, 'chrome-trace', 0));
  assert.equal(e.code, 'limit_exceeded');
  assert.match(e.message, /^the chrome-trace export of this run would take \d+\.\d MiB \(\d+ bytes\), over the 256\.0 MiB/);
  stillWorks();
});

test('exports just under the budget are whole: the text ends as its format ends', () => {
  const request = { schedule: 'zb-h1', ranks: 256, microBatches: 512 };  // 393,216 ops
  assert.ok(engine.exportText(request, 'svg', 0).text.endsWith('</svg>\n'));
  assert.ok(engine.exportText(request, 'chrome-trace', 0).text.endsWith('}\n'));
  const json = JSON.parse(engine.simulateJson(request, 'json').json);
  assert.equal(json.per_rank.reduce((n, r) => n + r.ops.length, 0), 393216);
  stillWorks();
});
