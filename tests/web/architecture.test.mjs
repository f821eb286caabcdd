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

/** Core's data that core writes for the page at build time (scripts/write-presets.mjs): the state's
 *  defaults are read from it, not written again. */
const CORE_DATA_FOR_STATE = ['../engine/generated/presets.json'];

test('the state modules import nothing but each other, types and the data core writes for them', () => {
  const offenders = files
    .filter((f) => f.path.startsWith('state/'))
    .flatMap((f) => importsOf(f.text).filter((spec) => !spec.startsWith('./') && !CORE_DATA_FOR_STATE.includes(spec)).map((spec) => `${f.path}: ${spec}`));
  assert.deepEqual(offenders, []);
});

test('only the engine client weighs a run to decide between the main thread and the worker', () => {
  const deciders = files.filter((f) => /\b(BACKGROUND_ABOVE_OPS|estimatedOps)\b/.test(f.text)).map((f) => f.path);
  assert.deepEqual(deciders, ['engine/client.ts']);
});

/** The views still asking the engine themselves, each with why; the list shrinks to empty as each
 *  becomes a renderer of what the app hands it (issue 20). */
const VIEWS_WITH_ENGINE = {};

/** An import that brings values, not only types (`import type {...}`, or every name marked `type`). */
const importsValues = (statement) => {
  if (/^import\s+type\b/.test(statement)) return false;
  const names = statement.match(/\{([^}]*)\}/);
  if (!names) return true;
  return names[1].split(',').map((n) => n.trim()).filter(Boolean).some((n) => !n.startsWith('type '));
};

test('no view imports a value from the engine: views draw what they are handed (types only, and the listed exceptions)', () => {
  const offenders = files
    .filter((f) => f.path.startsWith('views/') && !VIEWS_WITH_ENGINE[f.path])
    .flatMap((f) =>
      [...f.text.matchAll(/^import[^;]*?from '([^']+)'/gms)]
        .filter((m) => m[1].startsWith('../engine/') && importsValues(m[0]))
        .map((m) => `${f.path}: ${m[0].replace(/\s+/g, ' ')}`),
    );
  assert.deepEqual(offenders, []);
});

test('the views listed as still asking the engine do so (a view that no longer does leaves the list)', () => {
  const stale = Object.keys(VIEWS_WITH_ENGINE).filter((path) => {
    const f = files.find((file) => file.path === path);
    return !f || ![...f.text.matchAll(/^import[^;]*?from '([^']+)'/gms)].some((m) => m[1].startsWith('../engine/') && importsValues(m[0]));
  });
  assert.deepEqual(stale, []);
});
