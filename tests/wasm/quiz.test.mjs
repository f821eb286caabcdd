// The course module's quiz questions (quizQuestions, wasm/bindings_course.cpp): core's questions with
// their options in display order, the same numbers as the Catch2 suite pins (tests/test_quiz_questions.cpp).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { loadCourse, refusal } from './engine.mjs';

let course;
before(async () => (course = await loadCourse()));

const right = (q) => q.options[q.correct];

test('live questions at the default settings: the engine answers, core orders the options', () => {
  const questions = course.quizQuestions({ set: 'live', lang: 'en', seed: 7, ranks: 8, microBatches: 20, cost: 'F=1,B=2,W=1,FB=3' });
  assert.deepEqual(
    questions.map((q) => q.key),
    ['idles', 'bubble', 'slot', 'peak'].map((kind) => `live-${kind}-8-20-F=1,B=2,W=1,FB=3`),
  );
  const [idles, bubble, slot, peak] = questions;
  assert.equal(right(idles), 'DualPipe');
  assert.equal(idles.view, 'compare');
  assert.equal(right(bubble), '6');
  assert.deepEqual([...bubble.options].sort(), ['12', '21', '6', '7']);
  assert.deepEqual(slot.options, []);
  assert.equal(slot.correct, 17);
  assert.deepEqual(slot.timeline, { schedule: 'dualpipe', ranks: 8, microBatches: 20, cost: 'F=1,B=2,W=1,FB=3', prompt: 'Click a cell of rank 0 on this timeline.' });
  assert.equal(right(peak), '9');
  // The same seed gives the same order; core's defaults stand in for absent settings.
  assert.deepEqual(course.quizQuestions({ set: 'live', lang: 'en', seed: 7 }), questions);
  assert.deepEqual(course.quizQuestions({ set: 'live', lang: 'en', seed: 1 })[1].options, ['6', '12', '7', '21']);
});

test('bank questions: every question in the bank, the right option kept through the shuffle', () => {
  const bank = JSON.parse(readFileSync(new URL('../../core/data/quiz_bank.json', import.meta.url), 'utf8'));
  const questions = course.quizQuestions({ set: 'bank', lang: 'zh-CN', seed: 42 });
  assert.equal(questions.length, bank.questions.length);
  questions.forEach((q, i) => {
    const stored = bank.questions[i];
    assert.equal(q.key, `bank-${stored.id}`);
    assert.equal(right(q), stored.options[stored.correct]['zh-CN']);
    assert.equal(q.timeline, undefined);
  });
});

test('a refused quiz request names its field, and the module keeps working', () => {
  assert.equal(refusal(() => course.quizQuestions({ set: 'live', lang: 'fr' })).field, 'lang');
  assert.equal(refusal(() => course.quizQuestions({ set: 'live', cost: 'F=1,B=banana' })).field, 'cost.B');
  assert.equal(refusal(() => course.quizQuestions({ set: 'live', ranks: 'eight' })).field, 'ranks');
  assert.equal(refusal(() => course.quizQuestions({ set: 'live', seed: -1 })).field, 'seed');
  const unknown = refusal(() => course.quizQuestions({ set: 'all' }));
  assert.equal(unknown.code, 'unknown_name');
  assert.equal(unknown.field, 'set');
  assert.equal(course.quizQuestions({ set: 'live', lang: 'en', seed: 7 }).length, 4);
});
