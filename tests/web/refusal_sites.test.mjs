// The general rule of the page's languages, read from the sources: every refusal the engine, the io
// and course layers, the shared front-end code and the WebAssembly bindings can raise carries a
// wording key (pipesim::Wording, core/engine/include/pipesim/error.h), and web/src/i18n/refusals.ts
// words that key in pt-BR and zh-CN with no placeholder the site does not give. A new `throw Error(...)`
// without a key fails here, whichever input reaches it; the module's answers themselves are checked in
// refusal_wording.test.mjs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadWebModule } from './load.mjs';

const { refusalTemplate, REFUSAL_KEYS } = await loadWebModule('i18n/refusals');
const root = fileURLToPath(new URL('../../', import.meta.url));

// What the page can reach: the three core parts, their shared helpers, the front-end code and the
// bindings. The CLI's own options (core/cli) never reach the page; error.h declares the type.
const SCANNED = ['core/engine', 'core/io', 'core/course', 'core/frontend', 'core/internal', 'wasm'];
const NOT_A_SITE = new Set(['core/engine/include/pipesim/error.h']);

/**
 * Refusals not yet worded, by file, with how many sites each still has: the count must match
 * exactly, so keying one means lowering it here (and the list only shrinks).
 */
const NOT_YET = {
  'core/course/src/planner.cpp': { sites: 2, why: 'a plan search candidate that does not fit: caught and reported as its reason, never shown as a refusal' },
  'core/course/src/course_data.cpp': { sites: 2, why: "the page's own course files (a missing or unknown one is the page's bug)" },
  'core/engine/src/registry.cpp': { sites: 4, why: "a schedule registered by a program (C++ API), never by the page, and such a schedule given as text only (no rules) asked to generate" },
};

function sourceFiles(dir) {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(path);
    return /\.(cpp|h)$/.test(name) && !NOT_A_SITE.has(path) ? [path] : [];
  });
}

/**
 * Where the string or character literal that starts at `i` ends (its closing quote, escapes skipped),
 * or -1 when none starts there: an apostrophe after a digit is C++14's digit separator (1'000).
 */
function literalEnd(text, i) {
  const quote = text[i];
  if (quote !== '"' && !(quote === "'" && !/[0-9A-Fa-f]/.test(text[i - 1] ?? ''))) return -1;
  let j = i + 1;
  while (j < text.length && text[j] !== quote) j += text[j] === '\\' ? 2 : 1;
  return j;
}

/**
 * `text` with its comments blanked (same length, so indices and lines stay), its string literals
 * kept: an apostrophe in a comment ("can't") is no character literal.
 */
function withoutComments(text) {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const literal = literalEnd(text, i);
    if (literal >= 0) {
      out += text.slice(i, literal + 1);
      i = literal;
    } else if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      out += ' '.repeat(stop - i);
      i = stop - 1;
    } else if (text.startsWith('/*', i)) {
      const stop = text.indexOf('*/', i) + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop - 1;
    } else out += c;
  }
  return out;
}

/** The top-level arguments of the call whose '(' or '{' is at `open`, as source text. */
function argumentsAt(text, open) {
  const closing = { '(': ')', '{': '}', '[': ']' };
  const stack = [];
  const args = [];
  let current = '';
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    const literal = literalEnd(text, i);
    if (literal >= 0) {
      current += text.slice(i, literal + 1);
      i = literal;
      continue;
    }
    if (closing[c]) {
      stack.push(closing[c]);
      if (stack.length > 1) current += c;
      continue;
    }
    if (c === stack[stack.length - 1]) {
      stack.pop();
      if (stack.length === 0) {
        args.push(current.trim());
        return args;
      }
      current += c;
      continue;
    }
    if (c === ',' && stack.length === 1) {
      args.push(current.trim());
      current = '';
      continue;
    }
    current += c;
  }
  throw new Error(`unbalanced call at ${open}`);
}

/**
 * Every place that builds a refusal: `Error(code, message, wording, field)` (and `pipesim::Error{...}`),
 * a rethrow `Error(e.code(), ...)` included, a schedule rule `require(ok, name, rule, got, wording)`,
 * and a wording held in a variable (`Wording w{"key", ...}`), with the wording's source text.
 */
function refusalSites() {
  const sites = [];
  for (const file of SCANNED.flatMap(sourceFiles)) {
    const text = withoutComments(readFileSync(join(root, file), 'utf8'));
    const line = (index) => text.slice(0, index).split('\n').length;
    for (const m of text.matchAll(/\bError[({]/g)) {
      const args = argumentsAt(text, m.index + m[0].length - 1);
      if (!/ErrorCode::|\.code\(\)/.test(args[0] ?? '')) continue;  // a declaration or a type, not a refusal
      sites.push({ file, line: line(m.index), code: args[0], message: args[1] ?? '', wording: args[2] ?? '' });
    }
    for (const m of text.matchAll(/\brequire\(/g)) {
      if (!file.includes('/schedules/')) continue;
      const args = argumentsAt(text, m.index + m[0].length - 1);
      sites.push({ file, line: line(m.index), code: 'ErrorCode::schedule_rule', message: args[2] ?? '', wording: args[4] ?? '' });
    }
  }
  return sites;
}

/**
 * The keys a wording's source text names ("dualpipe.even_ranks"); a key built from a prefix
 * ("plan.missing_" + kind) names every catalogue key that starts with it.
 */
function keysOf(wording) {
  return [...wording.matchAll(/"([a-z_]+\.[a-z_0-9]+)"(\s*\+)?/g)].flatMap((m) =>
    m[2] ? REFUSAL_KEYS.filter((key) => key.startsWith(m[1])).concat(REFUSAL_KEYS.some((key) => key.startsWith(m[1])) ? [] : [m[1]]) : [m[1]],
  );
}
/** The values a wording gives, when they are written out at the site (else undefined: made by a helper). */
function paramsOf(wording) {
  if (!/\{\s*\{"/.test(wording)) return undefined;
  return new Set([...wording.matchAll(/\{"(\w+)",/g)].map((m) => m[1]).concat(['at_kind', 'at']));
}
/** A wording passed on from another refusal or a variable (`e.wording()`, `wording`): checked where it is made. */
const forwarded = (wording) => /^(std::move\()?\w*(\.wording\(\)|[wW]ording)\)?$/.test(wording.replace(/\s/g, ''));
/** A bug in pipesim itself, not a refusal of input: reported as it is, in English, to be fixed. */
const isInternal = (site) => site.code.trim() === 'ErrorCode::internal';

const sites = refusalSites();
const held = [];
for (const file of SCANNED.flatMap(sourceFiles)) {
  const text = withoutComments(readFileSync(join(root, file), 'utf8'));
  for (const m of text.matchAll(/\bWording\s+\w+\s*\{/g)) {
    const args = argumentsAt(text, m.index + m[0].length - 1);
    held.push({ file, line: text.slice(0, m.index).split('\n').length, wording: `{${args.join(', ')}}` });
  }
}

test('the scan finds the refusals it is about (a broken scan would find none)', () => {
  assert.ok(sites.length > 200, `${sites.length} sites`);
  assert.ok(sites.some((s) => s.file === 'core/engine/src/inputs/stage_costs.cpp' && /must be an object of costs/.test(s.message)));
  assert.ok(sites.some((s) => s.file === 'core/engine/src/schedules/dualpipe.cpp' && s.wording.includes('dualpipe.even_ranks')));
  assert.ok(sites.some((s) => s.file === 'wasm/bindings_course.cpp'));
});

test('every refusal the page can reach carries a wording key, or its file is listed as not yet worded', () => {
  const unworded = new Map();
  for (const site of sites) {
    if (isInternal(site) || forwarded(site.wording) || keysOf(site.wording).length > 0) continue;
    const list = unworded.get(site.file) ?? [];
    list.push(`${site.file}:${site.line}: ${site.message.slice(0, 90)}`);
    unworded.set(site.file, list);
  }
  const unlisted = [...unworded].filter(([file]) => !NOT_YET[file]).flatMap(([, list]) => list);
  assert.deepEqual(unlisted, [], 'refusals without a wording key (give each a key and its pt-BR and zh-CN sentence)');
  for (const [file, { sites: count }] of Object.entries(NOT_YET))
    assert.equal(unworded.get(file)?.length ?? 0, count, `${file}: unworded refusals (lower NOT_YET when you word one):\n${(unworded.get(file) ?? []).join('\n')}`);
});

test('every key a refusal names is worded in pt-BR and zh-CN, with only the values the refusal gives', () => {
  const problems = [];
  for (const site of [...sites, ...held]) {
    const given = paramsOf(site.wording);
    for (const key of keysOf(site.wording)) {
      for (const language of ['pt-BR', 'zh-CN']) {
        const template = refusalTemplate(language, key);
        if (!template) {
          problems.push(`${site.file}:${site.line}: ${key} has no ${language} sentence`);
          continue;
        }
        for (const [, name] of template.matchAll(/\{(\w+)\}/g))
          if (given && !given.has(name)) problems.push(`${site.file}:${site.line}: ${key} (${language}) quotes {${name}}, which the refusal does not give`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test('every sentence of the catalogue words a refusal some source raises, in both languages', () => {
  const raised = new Set([...sites, ...held].flatMap((s) => keysOf(s.wording)));
  assert.deepEqual(REFUSAL_KEYS.filter((key) => !raised.has(key)), [], 'catalogue keys no refusal names');
  assert.deepEqual(REFUSAL_KEYS.filter((key) => !refusalTemplate('zh-CN', key)), [], 'keys without a zh-CN sentence');
});
