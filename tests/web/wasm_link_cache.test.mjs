// scripts/wasm-link-cache.mjs, the WebAssembly links' cache, with a stand-in linker (a Node script that
// writes both outputs from its inputs and counts its runs): a link with the same inputs is reused, byte
// for byte, and any changed input (an object's content, a flag, the EMCC_* environment) links again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/wasm-link-cache.mjs', import.meta.url));

/** A checkout with one object and a stand-in linker, and a cache of its own, removed when test `t` ends. */
function setUp(t) {
  const root = mkdtempSync(join(tmpdir(), 'pipesim-link-cache-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const source = join(root, 'src');
  const build = join(root, 'build');
  mkdirSync(source);
  mkdirSync(build);
  const linker = join(source, 'link.mjs');
  // Writes OUTPUT and OUTPUT's .wasm from the objects it is given, its flags and EMCC_CFLAGS.
  writeFileSync(
    linker,
    `import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
const args = process.argv.slice(2);
const out = args[args.indexOf('-o') + 1];
const objects = args.filter((a) => a.endsWith('.o')).map((f) => readFileSync(f, 'utf8')).join('+');
const flags = args.filter((a) => a.startsWith('-s')).join(' ');
writeFileSync(out, 'loader of ' + objects + ' ' + flags + ' ' + (process.env.EMCC_CFLAGS ?? ''));
writeFileSync(out.replace(/\\.[^./]+$/, '') + '.wasm', 'module of ' + objects);
appendFileSync(${JSON.stringify(join(root, 'runs'))}, 'x');
`,
  );
  writeFileSync(join(build, 'a.o'), 'A');
  const cache = join(root, 'cache');
  const link = ({ flags = ['-sONE=1'], env = {} } = {}) => {
    const r = spawnSync(process.execPath, [script, source, build, '--', process.execPath, linker, join(build, 'a.o'), ...flags, '-o', join(build, 'm.mjs')], {
      env: { ...process.env, PIPESIM_WASM_LINK_CACHE_DIR: cache, EMCC_CFLAGS: '', ...env },
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout;
  };
  const runs = () => (existsSync(join(root, 'runs')) ? readFileSync(join(root, 'runs'), 'utf8').length : 0);
  const outputs = () => [readFileSync(join(build, 'm.mjs'), 'utf8'), readFileSync(join(build, 'm.wasm'), 'utf8')];
  return { build, cache, link, runs, outputs };
}

test('a link whose inputs are unchanged is reused byte for byte; the linker does not run again', (context) => {
  const t = setUp(context);
  t.link();
  assert.equal(t.runs(), 1);
  const first = t.outputs();
  rmSync(join(t.build, 'm.mjs'));
  rmSync(join(t.build, 'm.wasm'));
  assert.match(t.link(), /m\.mjs reused/);
  assert.equal(t.runs(), 1);
  assert.deepEqual(t.outputs(), first);
});

test('a changed object, flag or EMCC_ setting links again, and each result is kept apart', (context) => {
  const t = setUp(context);
  t.link();
  writeFileSync(join(t.build, 'a.o'), 'B');
  t.link();
  assert.equal(t.runs(), 2, 'an object with other content');
  assert.deepEqual(t.outputs(), ['loader of B -sONE=1 ', 'module of B']);
  t.link({ flags: ['-sONE=2'] });
  assert.equal(t.runs(), 3, 'another flag');
  t.link({ env: { EMCC_CFLAGS: '-g' } });
  assert.equal(t.runs(), 4, 'another EMCC_CFLAGS');
  assert.equal(t.outputs()[0], 'loader of B -sONE=1 -g');
  // Back to the first inputs: that link's own outputs, not the last one's.
  writeFileSync(join(t.build, 'a.o'), 'A');
  t.link();
  assert.equal(t.runs(), 4);
  assert.deepEqual(t.outputs(), ['loader of A -sONE=1 ', 'module of A']);
});

test('an entry missing one of its outputs is not used: the link runs and stores it whole again', (context) => {
  const t = setUp(context);
  t.link();
  const [entry] = readdirSync(t.cache);
  rmSync(join(t.cache, entry, 'm.wasm'));
  t.link();
  assert.equal(t.runs(), 2);
  assert.ok(existsSync(join(t.cache, entry, 'm.wasm')));
});
