// docs/robustness.md's table of exports at the limits (issue 18) is written by
// scripts/measure-exports.mjs from what it measured: every built-in schedule of the registry, every
// export format, and in the module either the text or a refusal naming its size, never an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine } from './engine.mjs';

const doc = readFileSync(new URL('../../docs/robustness.md', import.meta.url), 'utf8');
const table = doc.slice(doc.indexOf('<!-- exports-at-limits -->'), doc.indexOf('<!-- /exports-at-limits -->'));
const rows = table
  .split('\n')
  .filter((line) => /^\| [a-z0-9-]+ \d/.test(line))
  .map((line) => line.split('|').slice(1, -1).map((cell) => cell.trim()));

test('the table of exports at the limits has every built-in schedule in every format, as the script wrote it', async () => {
  const engine = await loadEngine();
  const builtIn = engine.schedules().map((s) => s.name).filter((name) => name !== 'custom');
  const formats = ['json', 'chrome-trace', 'csv', 'svg', 'actions'];
  const listed = rows.map(([run, , format]) => `${run.split(' ')[0]} ${format}`).sort();
  assert.deepEqual(listed, builtIn.flatMap((name) => formats.map((f) => `${name} ${f}`)).sort());
  for (const [run, ops, format, cli, wasm, measured] of rows) {
    // When, and how loaded the machine was: times on a loaded machine are upper bounds.
    assert.match(measured, /^(\d{4}-\d\d-\d\d \d\d:\d\d, \d+\.\d on \d+ cores|an earlier round, .+)$/, `${run} ${format}`);
    assert.match(ops, /^\d{1,3}(,\d{3})*$/, run);
    assert.match(cli, /^\d+\.\d s, \d+ MiB$/, `${run} ${format}: the CLI streams every export`);
    assert.match(wasm, /^(\d+\.\d s, \d+\.\d MiB of text|refused in \d+\.\d\d s \((at least )?[\d.]+ [MG]iB( \(\d+ bytes\))?\))$/, `${run} ${format}`);
    // At most the op limit, stages per rank included (limits.h).
    assert.ok(Number(ops.replaceAll(',', '')) <= engine.limits().maxOps, run);
  }
});
