// The page's layering, checked on its sources: views draw and never reach into the app, the state
// needs no DOM, and one module decides where runs are simulated.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../../web/src/', import.meta.url));

function sources(dir = SRC) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'generated' ? [] : sources(join(dir, e.name))) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const files = sources().map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));
const importsOf = (text) => [...text.matchAll(/^import[^;]*?from '([^']+)'/gms)].map((m) => m[1]);

test('no view, timeline, model, state or engine module imports the app', () => {
  const offenders = files
    .filter((f) => /^(views|timeline|model|state|engine|base)\//.test(f.path))
    .filter((f) => importsOf(f.text).some((spec) => spec.startsWith('../app/')))
    .map((f) => f.path);
  assert.deepEqual(offenders, []);
});

test('the state modules import nothing but each other and types', () => {
  const offenders = files
    .filter((f) => f.path.startsWith('state/'))
    .flatMap((f) => importsOf(f.text).filter((spec) => !spec.startsWith('./')).map((spec) => `${f.path}: ${spec}`));
  assert.deepEqual(offenders, []);
});

test('only the engine client weighs a run to decide between the main thread and the worker', () => {
  const deciders = files.filter((f) => /\b(BACKGROUND_ABOVE_OPS|estimatedOps)\b/.test(f.text)).map((f) => f.path);
  assert.deepEqual(deciders, ['engine/client.ts']);
});
