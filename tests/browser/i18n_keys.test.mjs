// The dictionaries without a browser: pt-BR and zh-CN define exactly the keys of en.ts, keep every
// {placeholder} (same names, same count), and a value identical to the English text is allowed only
// when same_as_english.ts lists it with a reason. The .ts files are object literals of strings, so
// they are read as text and the literal is evaluated (Node 20 cannot import TypeScript).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const I18N = fileURLToPath(new URL('../../web/src/i18n/', import.meta.url));

/** The object literal exported by `file` (`export const x = { ... } as const | satisfies ...;`). */
function literal(file) {
  const src = readFileSync(I18N + file, 'utf8');
  const start = src.indexOf('{', src.indexOf('export const'));
  const end = src.lastIndexOf('}', src.search(/\}\s*(as const|satisfies\b)[^;]*;\s*$/m) + 1);
  assert.ok(start > 0 && end > start, `${file}: no exported object literal`);
  return Function(`"use strict"; return (${src.slice(start, end + 1)});`)();
}

const en = literal('en.ts');
const dictionaries = { 'pt-BR': literal('pt_br.ts'), 'zh-CN': literal('zh_cn.ts') };
const same = literal('same_as_english.ts');
const placeholders = (text) => (text.match(/\{\w+\}/g) ?? []).sort();

for (const [lang, dict] of Object.entries(dictionaries)) {
  test(`${lang}: exactly the keys of en.ts`, () => {
    const missing = Object.keys(en).filter((k) => !(k in dict));
    const extra = Object.keys(dict).filter((k) => !(k in en));
    assert.deepEqual(missing, [], `${lang} lacks keys`);
    assert.deepEqual(extra, [], `${lang} has keys en.ts does not`);
  });

  test(`${lang}: every value is a non-empty string with the English placeholders`, () => {
    for (const key of Object.keys(en)) {
      assert.equal(typeof dict[key], 'string', `${lang} ${key}`);
      assert.ok(dict[key].trim().length > 0, `${lang} ${key} is empty`);
      assert.deepEqual(placeholders(dict[key]), placeholders(en[key]), `${lang} ${key}: placeholders differ from English`);
    }
  });

  test(`${lang}: values identical to English are exactly the ones listed in same_as_english.ts`, () => {
    const listed = same[lang] ?? {};
    const identical = Object.keys(en).filter((k) => dict[k] === en[k]);
    const unlisted = identical.filter((k) => !(k in listed));
    assert.deepEqual(unlisted, [], `${lang}: identical to English but not listed (forgotten?)`);
    const stale = Object.keys(listed).filter((k) => dict[k] !== en[k]);
    assert.deepEqual(stale, [], `${lang}: listed in same_as_english.ts but no longer identical`);
    for (const [key, reason] of Object.entries(listed)) assert.ok(reason.trim().length >= 10, `${lang} ${key}: give a reason`);
  });

  test(`${lang}: no Latin ASCII punctuation glued to CJK text, no stray double spaces`, () => {
    for (const [key, value] of Object.entries(dict)) {
      assert.ok(!/ {2}/.test(value), `${lang} ${key}: double space`);
      assert.equal(value, value.trim(), `${lang} ${key}: leading or trailing space`);
      if (lang === 'zh-CN') assert.ok(!/[\u4e00-\u9fff][,;:?!.(]|[)][\u4e00-\u9fff]/.test(value), `${lang} ${key}: ASCII punctuation next to Chinese text: ${value}`);
    }
  });
}

test('the course widget has its hints and a caption per view in the three languages, and stays ES5', () => {
  const src = readFileSync(fileURLToPath(new URL('../../web/src/embed/figures-pipesim.js', import.meta.url)), 'utf8');
  assert.doesNotThrow(() => new Function(src), 'figures-pipesim.js does not parse');
  const table = src.match(/var TEXT = (\{[\s\S]*?\n {2}\});/);
  assert.ok(table, 'figures-pipesim.js: no TEXT table');
  const text = Function(`"use strict"; return (${table[1]});`)();
  assert.deepEqual(Object.keys(text).sort(), ['en', 'pt-BR', 'zh-CN']);
  const views = ['chunk', 'compare', 'quiz', 'timeline'];
  for (const [lang, strings] of Object.entries(text)) {
    assert.deepEqual(Object.keys(strings).sort(), ['captions', 'chunkHint', 'hint', 'quizHint'], lang);
    assert.deepEqual(Object.keys(strings.captions).sort(), views, lang);
    const values = [strings.hint, strings.chunkHint, strings.quizHint, ...views.map((v) => strings.captions[v])];
    for (const value of values) assert.ok(value.length >= 5, `${lang}: ${value}`);
    if (lang !== 'en') {
      for (const key of ['hint', 'chunkHint', 'quizHint']) assert.notEqual(strings[key], text.en[key], `${lang} ${key}`);
      for (const view of views) assert.notEqual(strings.captions[view], text.en.captions[view], `${lang} caption ${view}`);
    }
  }
  const code = src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '').replace(/'(?:\\.|[^'\\])*'/g, "''");
  for (const es6 of [/\b(let|const|class)\s/, /=>/, /`/, /\.\.\.\w/]) assert.doesNotMatch(code, es6, `not ES5: ${es6}`);
});
