// No built-in schedule and no export format is named outside core/ and tests/: the page, the
// WebAssembly bindings and the scripts read them from the registry and the export table. The names
// are read from the core's sources (each schedule's `.name`, each row of the format table), so a new
// schedule or format is checked without an edit here. Comments are not code and are not searched.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path) => readFileSync(join(ROOT, path), 'utf8');

const SCHEDULE_DIR = 'core/engine/src/schedules';
const SCHEDULES = readdirSync(join(ROOT, SCHEDULE_DIR)).flatMap((f) =>
  [...read(`${SCHEDULE_DIR}/${f}`).matchAll(/^\s*\.name = "([^"]+)",/gm)].map((m) => m[1]),
);
const FORMATS = [...read('core/io/src/export.cpp').matchAll(/\{ExportFormat::\w+, "([^"]+)"/g)].map((m) => m[1]);

/** Files still allowed to name them, each with why. */
const ALLOWED_FILES = {
  'web/src/i18n/refusals.ts': "H's: translations of the engine's refusals, which name the schedule they refuse",
  'scripts/bench-targets.json': "the bench budgets' notes (prose about the cases)",
};

/** Single string literals still allowed, each with why: examples in messages a person reads. */
const ALLOWED_LITERALS = [
  ['web/src/state/url_adapter.ts', 'custom', 'the URL parameter that carries a pasted schedule, not the schedule\'s name'],
  ['web/src/embed/figures-pipesim.js', 'pipesim P=8 M=20 schedules=dualpipe,1f1b view=compare', "the widget's example line, in its refusal"],
  ['web/src/embed/figures-pipesim.js', 'schedules must be a comma-separated list like dualpipe,1f1b', 'an example in a refusal'],
  ['web/src/embed/figures-pipesim.js', 'schedules must be names like dualpipe,1f1b', 'an example in a refusal'],
  ['web/src/embed/figures-pipesim.js', 'schedule must be a name like dualpipe', 'an example in a refusal'],
  ['scripts/fuzz.sh', 'custom schedules: JSON, PyTorch actions, Chrome traces (parse_custom_schedule), then run and every export', "a fuzz target's description"],
  // simulateJson(request, detail): its own two words ('json': the full report, 'summary'), not a
  // choice among the export formats.
  ['wasm/bindings_engine.cpp', 'json', "simulateJson's detail word and its result's field"],
  ['wasm/pipesim_engine.d.mts', 'json', "simulateJson's detail word"],
  ['scripts/bench-python.py', 'json', "the CLI's JSON report, which the Python reference reads the schedule from"],
  ['scripts/check-dualpipe-reference.py', 'json', "the CLI's JSON report, which the check reads each op's start from"],
];

function walk(dir) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'generated' ? [] : walk(join(dir, e.name))) : [join(dir, e.name)],
  );
}

/** The text with its comments blanked (line numbers kept). */
function code(text, path) {
  if (/\.(sh|py)$/.test(path)) return text.replace(/(^|\s)#.*$/gm, '$1');
  return text.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"\\])\/\/.*$/gm, '$1');
}

/** Every string literal of `text` with its line and what precedes it on the line. */
function* literals(text) {
  const lines = text.split('\n');
  for (let k = 0; k < lines.length; k++)
    for (const m of lines[k].matchAll(/'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g))
      yield { line: k + 1, value: m[1] ?? m[2] ?? m[3], before: lines[k].slice(0, m.index) };
}

/** The names a literal gives: a schedule named anywhere in it (as a word: "dualpipe.py" is a file,
 *  "refusal.custom" a key), a format as the whole literal (not the tag of an <svg> element). In the
 *  page's dictionaries, prose ("a custom schedule") is text, not a name: only whole literals count. */
export function namesIn(literal, { prose = false, tagArgument = false } = {}) {
  const words = prose ? [literal.value] : literal.value.split(/[^A-Za-z0-9_.-]+/).map((w) => w.replace(/\.+$/, ''));
  const schedules = SCHEDULES.filter((name) => words.includes(name));
  const formats = FORMATS.includes(literal.value) && !tagArgument ? [literal.value] : [];
  return [...new Set([...schedules, ...formats])];
}

function offenders() {
  const files = ['web/src', 'wasm', 'scripts'].flatMap(walk).filter((p) => /\.(ts|js|mjs|cpp|h|mts|sh|py|json|cmake|txt)$/.test(p));
  const found = [];
  for (const path of files) {
    if (ALLOWED_FILES[path]) continue;
    const prose = /^web\/src\/i18n\//.test(path);
    for (const literal of literals(code(read(path), path))) {
      const tagArgument = /\b(svg|el|createElement)\(\s*$/.test(literal.before) || /createElementNS\([^,]*,\s*$/.test(literal.before);
      // The module's own API: a bound function's name (actions()) or a result's field, in the bindings.
      const apiName = /^wasm\//.test(path) && (/(\.set|emscripten::function)\(\s*$/.test(literal.before) || /for \(const name of \[/.test(literal.before));
      const names = namesIn(literal, { prose, tagArgument: tagArgument || apiName });
      if (names.length === 0) continue;
      if (ALLOWED_LITERALS.some(([file, value]) => file === path && value === literal.value)) continue;
      found.push(`${relative('.', path)}:${literal.line}: ${names.join(', ')} in ${JSON.stringify(literal.value)}`);
    }
  }
  return found;
}

test("the names are read from the core's sources: every schedule of the registry and every export format", () => {
  const list = read('core/engine/src/detail/schedule_list.h');
  const listed = [...list.matchAll(/^PIPESIM_SCHEDULE\((\w+)\)/gm)].length;
  assert.equal(SCHEDULES.length, listed);
  assert.ok(SCHEDULES.includes('dualpipe') && SCHEDULES.includes('custom'));
  const table = read('core/io/src/export.cpp').match(/std::array<ExportFormatInfo, (\d+)>/);
  assert.equal(FORMATS.length, Number(table[1]));
});

test('a schedule is found as a word of a literal and a format as a whole literal, not as a file, a key or a tag', () => {
  const at = (value) => ({ value, before: '' });
  assert.deepEqual(namesIn(at("dualpipe")), ['dualpipe']);
  assert.deepEqual(namesIn(at('?schedule=zb-h1&ranks=8')), ['zb-h1']);
  assert.deepEqual(namesIn(at('1f1b 64x1024 simulate()')), ['1f1b']);
  assert.deepEqual(namesIn(at('see dualpipe.py')), []);
  assert.deepEqual(namesIn(at('refusal.custom')), []);
  assert.deepEqual(namesIn(at('json')), ['json']);
  assert.deepEqual(namesIn(at('application/json')), []);
  assert.deepEqual(namesIn(at('svg'), { tagArgument: true }), []);
  assert.deepEqual(namesIn(at('a custom schedule'), { prose: true }), []);
  assert.deepEqual(namesIn(at('custom'), { prose: true }), ['custom']);
});

test('no file in web/src, wasm or scripts names a built-in schedule or an export format, but those listed with a reason', () => {
  assert.deepEqual(offenders(), []);
});

test('every allowed file still exists (a file that went away leaves the list)', () => {
  const missing = [...Object.keys(ALLOWED_FILES), ...ALLOWED_LITERALS.map(([file]) => file)].filter((path) => {
    try {
      read(path);
      return false;
    } catch {
      return true;
    }
  });
  assert.deepEqual(missing, []);
});
