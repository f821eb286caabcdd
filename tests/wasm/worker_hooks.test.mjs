// What the page's background worker relies on in the module (issue 18): a large export tells the
// module's onExportProgress option how far it has got, and abortForTest breaks the module for real
// (a failure inside WebAssembly), after which every call says so with broken: true.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../../build-wasm/wasm/', import.meta.url));

/** A fresh engine module created with `options`, as the worker creates its own. */
function engineWith(options) {
  const require = createRequire(import.meta.url);
  return require(`${dir}pipesim_engine_node.cjs`)({ wasmBinary: readFileSync(`${dir}pipesim_engine_node.wasm`), ...options });
}

test('a large export tells onExportProgress its records after each block, rising to every op', async () => {
  const told = [];
  const engine = await engineWith({ onExportProgress: (written, expected) => told.push([written, expected]) });
  // 1F1B 32 x 128: 8,192 ops, one CSV row each, about 250 KB: several 64 KiB blocks.
  const { text } = engine.exportText({ schedule: '1f1b', ranks: 32, microBatches: 128 }, 'csv', 0);
  assert.equal(text.split('\r\n').length - 2, 8192, 'a header and a row per op');
  assert.ok(told.length >= 3, `told ${told.length} times`);
  for (let k = 1; k < told.length; k++) assert.ok(told[k][0] > told[k - 1][0]);
  assert.ok(told.every(([, expected]) => expected === 8192));
  assert.deepEqual(told.at(-1), [8192, 8192]);
  // Without the option, the same export, told to nobody.
  const quiet = await engineWith({});
  assert.equal(quiet.exportText({ schedule: '1f1b', ranks: 32, microBatches: 128 }, 'csv', 0).text, text);
});

test('abortForTest fails inside WebAssembly: the module is broken and every later call says so', async () => {
  const lines = [];
  const engine = await engineWith({ printErr: (line) => lines.push(line) });
  assert.equal(engine.broken, false);
  assert.throws(() => engine.abortForTest(), (e) => {
    assert.equal(e.name, 'PipesimError');
    assert.equal(e.code, 'internal');
    assert.equal(e.broken, true);
    assert.match(e.message, /^internal error: the engine stopped after a failure inside WebAssembly \(Aborted\(\)\. Build with -s ASSERTIONS=1 for more info\.\); it must be loaded again$/);
    return true;
  });
  assert.equal(engine.broken, true);
  assert.throws(() => engine.simulate({ schedule: '1f1b', ranks: 4, microBatches: 8 }), (e) => e.broken === true && e.code === 'internal');
  // Another instance is not affected: what the page does is load a new one.
  const fresh = await engineWith({});
  assert.equal(fresh.simulate({ schedule: '1f1b', ranks: 4, microBatches: 8 }).summary.makespan, 33);
});
