// The course's views (quiz, learn, exercises) only draw: the engine is reached through model/*_source.ts,
// and core, not the page, makes the quiz's questions and orders their options.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const VIEWS = ['quiz_card', 'quiz_panel', 'learn_panel', 'exercises_panel'];
const source = (name) => readFileSync(new URL(`../../web/src/views/${name}.ts`, import.meta.url), 'utf8');
const valueImports = (text) => [...text.matchAll(/^import (?!type )[^;]*?from '([^']+)'/gms)].map((m) => m[1]);

test('the quiz, learn and exercises views import nothing of the engine but types', () => {
  const offenders = VIEWS.flatMap((name) => valueImports(source(name)).filter((spec) => spec.startsWith('../engine/')).map((spec) => `${name}: ${spec}`));
  assert.deepEqual(offenders, []);
});

test('the quiz card neither shuffles nor names a schedule: core orders the options and picks the schedules', () => {
  const card = source('quiz_card');
  assert.doesNotMatch(card, /shuffle|mulberry|\.sort\(/i);
  assert.doesNotMatch(card, /'(dualpipe|dualpipev|1f1b|gpipe|zb-h1|zb-h2|interleaved-1f1b|zb-v|chimera)'/);
  assert.doesNotMatch(source('exercises_panel'), /'(dualpipe|dualpipev|1f1b|gpipe|zb-h1|zb-h2|interleaved-1f1b|zb-v|chimera)'/);
});
