// Numbers and words in the page's language: the formatting every view shares, and choosing a language.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';

// One bundle, so that format.ts and i18n share the current language.
const { num, percent, setLang, detectLang, t, inLang } = await loadWebModule('../../tests/web/fixtures/format_and_i18n');

test('numbers are integers as they are, others with at most three decimals, and a dash when not finite', async () => {
  await setLang('en', { updateDocument: false });
  assert.equal(num(42), '42');
  assert.equal(num(1 / 3), '0.333');
  assert.equal(num(2.5), '2.5');
  assert.equal(num(NaN), '–');
  assert.equal(num(Infinity), '–');
});

test('a fraction is a percentage with the digits asked for', async () => {
  await setLang('en', { updateDocument: false });
  assert.equal(percent(0.123456), '12.3%');
  assert.equal(percent(0.123456, 2), '12.35%');
  assert.equal(percent(Number.NaN), '–');
});

test('Brazilian Portuguese writes a decimal comma, as the engine\'s translated texts do', async () => {
  await setLang('pt-BR', { updateDocument: false });
  assert.equal(num(2.5), '2,5');
  assert.equal(percent(0.5, 1), '50,0%');
  assert.equal(num(7), '7');
  await setLang('en', { updateDocument: false });
});

test('the language is ?lang= first, then the saved choice, then the browser\'s, then English', () => {
  assert.equal(detectLang('?lang=zh', 'pt-BR', ['en-US']), 'zh-CN');
  assert.equal(detectLang('?lang=klingon', 'pt-br', ['zh-TW']), 'pt-BR');
  assert.equal(detectLang('', null, ['fr-FR', 'zh-TW', 'en']), 'zh-CN');
  assert.equal(detectLang('', null, ['fr-FR']), 'en');
});

test('t fills the placeholders it is given and leaves the others as written', async () => {
  await setLang('en', { updateDocument: false });
  assert.equal(t('timeline.rank', { n: 3 }), 'rank 3');
  assert.equal(t('timeline.rank'), 'rank {n}');
  assert.equal(t('no.such.key'), 'no.such.key');
});

test('inLang speaks another language for one piece of work, then restores the current one', async () => {
  await setLang('pt-BR', { updateDocument: false });
  await setLang('en', { updateDocument: false });
  assert.equal(inLang('pt-BR', () => num(0.5)), '0,5');
  assert.equal(num(0.5), '0.5');
});
