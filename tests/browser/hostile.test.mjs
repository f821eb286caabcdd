// Hostile input, as a link or an imported file written by someone else would bring it: markup in every
// string parameter of the URL, numbers the engine must refuse (10^30, NaN, Infinity, negative, zero,
// fractions, empty), thousands of parameters, megabyte-long values, requests over the engine's limits,
// and broken or malicious imports (JSON, PyTorch actions, Chrome traces) through the paste box and the
// file picker. Each case asserts: no uncaught exception or console error, no element or script injected
// (and the payload's window flag never set), the engine's refusal in the `error` readout, and that the
// next valid input simulates again (Fig. 5: DualPipe, 8 ranks x 20 micro-batches, makespan 66).
// docs/robustness.md counts these cases per class.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrowser } from './harness.mjs';

let browser;
after(async () => browser?.close());

/** Payloads that would run script or add elements if a string reached the page as markup. */
const MARKUP = [
  '<script>window.__pwned=1</script>',
  '<img src=x onerror="window.__pwned=1">',
  '"><svg onload="window.__pwned=1"></svg>',
  "'><iframe srcdoc=\"<script>parent.__pwned=1</script>\"></iframe>",
  'javascript:window.__pwned=1',
];
/** Numbers no size field accepts. */
const NUMBERS = ['1e30', 'NaN', 'Infinity', '-Infinity', '-5', '0', '2.5', '', ' ', '1e', '99999999999999999999', '0.000001'];

const FIG5 = '?schedule=dualpipe&ranks=8&micro-batches=20&cost=F=1,B=2,W=1,FB=3';

/** Counts per class, printed at the end for docs/robustness.md. */
const counts = {};
const count = (cls) => (counts[cls] = (counts[cls] ?? 0) + 1);
after(() => console.log(`hostile cases per class: ${JSON.stringify(counts)}`));

const q = (params) => '?' + params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

/** The page's own scripts, read once from a clean load: nothing may add to them. */
let ownScripts;

const routed = new WeakSet();

async function openAt(page, path) {
  // Long addresses are handed to the page directly: a real server (ours included, like most) refuses
  // request lines over ~16 KB before the page could see them, but a browser accepts up to 2 MB.
  if (path.length > 8000 && !routed.has(page)) {
    routed.add(page);
    await page.route((u) => u.search.length > 8000, async (route) => {
      const response = await route.fetch({ url: browser.url });
      await route.fulfill({ response });
    });
  }
  await page.goto(browser.url + path);
  await page.waitForSelector('#app[data-state=ready]');
}

/** Nothing injected: no handler attributes, no frames, no scripts but the page's own, the flag unset. */
async function assertNothingInjected(page, label) {
  const found = await page.evaluate(() => ({
    pwned: window.__pwned ?? null,
    handlers: [...document.querySelectorAll('*')].filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).length,
    frames: document.querySelectorAll('iframe, object, embed').length,
    scripts: [...document.scripts].map((s) => s.src || 'inline'),
    markupInText: [...document.querySelectorAll('img, svg image, script')].filter((e) => /pwned/.test(e.outerHTML)).length,
  }));
  assert.equal(found.pwned, null, `${label}: the payload ran`);
  assert.equal(found.handlers, 0, `${label}: an element with an on* attribute`);
  assert.equal(found.frames, 0, `${label}: a frame was injected`);
  assert.equal(found.markupInText, 0, `${label}: an element carries the payload`);
  assert.deepEqual(found.scripts, ownScripts, `${label}: a script was added`);
}

/** The `error` readout shows the engine's refusal (matching `pattern`), and the page stays stale-greyed. */
async function assertRefused(page, pattern, label) {
  await page.waitForFunction(
    (source) => {
      const box = document.querySelector('[data-testid=error]');
      return !!box && !box.hidden && new RegExp(source).test(box.dataset.message ?? '') && box.textContent.trim().length > 0;
    },
    pattern.source,
  ).catch(async () => {
    const shown = await page.evaluate(() => {
      const box = document.querySelector('[data-testid=error]');
      return { hidden: box?.hidden, message: (box?.dataset.message ?? '').slice(0, 300) };
    });
    assert.fail(`${label}: expected a refusal matching ${pattern}, the error readout has ${JSON.stringify(shown)}`);
  });
}

/** The page simulates again: `makespan` shown, no error. */
async function assertWorks(page, makespan, label) {
  await page.waitForFunction(
    (want) => {
      const box = document.querySelector('[data-testid=error]');
      return box?.hidden && document.querySelector('[data-testid=makespan]')?.textContent === want;
    },
    String(makespan),
  ).catch(async () => {
    const shown = await page.evaluate(() => ({
      error: document.querySelector('[data-testid=error]')?.dataset.message?.slice(0, 300),
      makespan: document.querySelector('[data-testid=makespan]')?.textContent,
    }));
    assert.fail(`${label}: expected makespan ${makespan}, the page shows ${JSON.stringify(shown)}`);
  });
}

/** Fig. 5 chosen from the preset menu: the next valid input after a refusal. */
async function recoverWithFig5(page, label) {
  await page.selectOption('[data-testid=preset]', 'fig5');
  await assertWorks(page, 66, `${label}, then the Fig. 5 preset`);
}

before(async () => {
  browser = await openBrowser();
  const { page, problems } = await browser.page(FIG5);
  ownScripts = await page.evaluate(() => [...document.scripts].map((s) => s.src || 'inline'));
  assert.equal(await page.textContent('[data-testid=makespan]'), '66');
  assert.deepEqual(problems, []);
  await page.close();
});

/** URL cases: [class, query, expected refusal or null when the page must ignore the value, makespan]. */
function urlCases() {
  const cases = [];
  const sizes = [
    ['ranks', FIG5.replace('ranks=8', 'ranks=@')],
    ['micro-batches', FIG5.replace('micro-batches=20', 'micro-batches=@')],
    ['virtual-stages', '?schedule=interleaved-1f1b&ranks=4&micro-batches=8&virtual-stages=@'],
  ];
  const what = { ranks: /^ranks /, 'micro-batches': /^micro-batches /, 'virtual-stages': /^virtual stages / };
  for (const [field, template] of sizes) {
    for (const v of NUMBERS) cases.push(['URL: hostile number in a size', template.replace('@', encodeURIComponent(v)), what[field]]);
    for (const v of MARKUP) cases.push(['URL: markup in a parameter', template.replace('@', encodeURIComponent(v)), what[field]]);
  }
  for (const v of ['F=1e30', 'F=NaN', 'F=Infinity', 'B=-Infinity', 'F=-5', 'B=', 'F=1,B=2,FB=1.5', 'F=0,B=0', 'comm=-1', 'FB=1e308', 'F=1,F=1', 'F', '='])
    cases.push(['URL: hostile number in a cost', `?schedule=1f1b&ranks=4&micro-batches=8&cost=${encodeURIComponent(v)}`, /^cost|^costs|^unknown cost/]);
  for (const v of MARKUP) {
    cases.push(['URL: markup in a parameter', `?schedule=${encodeURIComponent(v)}`, /^unknown schedule/]);
    cases.push(['URL: markup in a parameter', `?cost=${encodeURIComponent(v)}`, /^unknown cost|^cost/]);
    cases.push(['URL: markup in a parameter', `?schedule=custom&custom=${encodeURIComponent(v)}`, /token|JSON/]);
    // Parameters the page reads but does not send to the engine: ignored, Fig. 5 as usual.
    for (const key of ['view', 'lang', 'embed', 'preset', v]) cases.push(['URL: markup in a parameter', `?${encodeURIComponent(key)}=${encodeURIComponent(v)}`, null]);
  }
  cases.push(['URL: over a limit', '?schedule=1f1b&ranks=4097&micro-batches=8', /^ranks must be at most 4096/]);
  cases.push(['URL: over a limit', '?schedule=1f1b&ranks=8&micro-batches=1048577', /^micro-batches must be at most 1048576/]);
  cases.push(['URL: over a limit', '?schedule=interleaved-1f1b&ranks=4&micro-batches=8&virtual-stages=17', /^virtual stages must be at most 16/]);
  cases.push(['URL: over a limit', '?schedule=gpipe&ranks=4096&micro-batches=1048576', /^gpipe at 4096 ranks x 1048576 micro-batches would have 8589934592 ops/]);
  cases.push(['URL: over a limit', '?schedule=zb-v&ranks=2048&micro-batches=2048', /^zb-v at 2048 ranks x 2048 micro-batches would have 25165824 ops, over the 6291456 ops one run may have$/]);
  cases.push(['URL: malformed encoding', '?ranks=%E0%A4%A&micro-batches=%', /^ranks /]);
  cases.push(['URL: malformed encoding', '?schedule=%00%01%02', /^unknown schedule/]);
  // Thousands of parameters: ignored ones, a refused value repeated, markup in 5000 names and values.
  const many = (n, make) => Array.from({ length: n }, (_, i) => make(i));
  cases.push(['URL: thousands of parameters', q([...many(5000, (i) => [`p${i}`, String(i)])]), null]);
  cases.push(['URL: thousands of parameters', q(many(5000, () => ['ranks', '-5'])), /^ranks must be at least 1/]);
  cases.push(['URL: thousands of parameters', q(many(5000, (i) => [`${MARKUP[i % MARKUP.length]}${i}`, MARKUP[(i + 1) % MARKUP.length]])), null]);
  cases.push(['URL: thousands of parameters', q(many(5000, (i) => ['compare', `x${i}`])), null]);
  // Megabyte-long values.
  const mb = 1 << 20;
  cases.push(['URL: 1 MB value', `?ranks=${'9'.repeat(mb)}`, /^ranks must be a whole number/]);
  cases.push(['URL: 1 MB value', `?schedule=1f1b&ranks=4&micro-batches=8&cost=F=${'1'.repeat(mb)}`, /^cost F /]);
  cases.push(['URL: 1 MB value', `?schedule=${'x'.repeat(mb)}`, /^unknown schedule/]);
  cases.push(['URL: 1 MB value', `?schedule=custom&custom=${encodeURIComponent('0F0,'.repeat(mb / 4))}`, /./]);
  // (Chromium refuses addresses over 2 MB itself: 1 MB of '<', written %3C, would never reach the page.)
  cases.push(['URL: 1 MB value', `?lang=pt${'a'.repeat(mb)}&view=${'b'.repeat(mb / 2)}`, null]);
  return cases;
}

test('hostile query strings: refused in the error readout, nothing injected, and the next input simulates', async () => {
  // Every case is a fresh visit, independent of the others: they are shared out over a few pages,
  // each taking the next case when done with its last, so that one page's load overlaps another's
  // wait. Each case is still checked whole, from its visit through to the recovery.
  const cases = urlCases();
  let next = 0;
  let visited = 0;
  const visitor = async () => {
    const { page, problems } = await browser.page(FIG5);
    while (next < cases.length) {
      const [cls, path, refusal] = cases[next++];
      const label = `${cls} ${path.slice(0, 120)}${path.length > 120 ? `... (${path.length} chars)` : ''}`;
      await openAt(page, path);
      if (refusal) await assertRefused(page, refusal, label);
      else await assertWorks(page, 66, label);
      await assertNothingInjected(page, label);
      await recoverWithFig5(page, label);
      assert.deepEqual(problems, [], label);
      count(cls);
      visited += 1;
    }
    await page.close();
  };
  await Promise.all(Array.from({ length: 3 }, visitor));
  assert.equal(visited, cases.length, 'every case was visited');
});

test('markup in a compared schedule name is shown as text in the compare table', async () => {
  const { page, problems } = await browser.page('');
  for (const v of MARKUP) {
    const label = `compare=${v}`;
    await openAt(page, `${FIG5}&view=compare&compare=${encodeURIComponent(v)},1f1b`);
    await page.waitForFunction((text) => [...document.querySelectorAll('.error-cell')].some((c) => c.textContent.includes(text)), v);
    await assertNothingInjected(page, label);
    assert.equal(await page.textContent('[data-testid=makespan]'), '66');
    count('URL: markup in a parameter');
  }
  assert.deepEqual(problems, []);
  await page.close();
});

// ---- imports -------------------------------------------------------------------------------------

/** A valid two-rank schedule in each import format (makespan 6 at F=1, B=2), and hostile ones. */
const VALID = {
  actions: '0F0,0B0\n1F0,1B0\n',
  json: JSON.stringify({ micro_batches: 1, per_rank: [{ ops: [{ op: 'F', mb: 0, stage: 0 }, { op: 'B', mb: 0, stage: 0 }] }, { ops: [{ op: 'F', mb: 0, stage: 1 }, { op: 'B', mb: 0, stage: 1 }] }] }),
};
const traceEvent = (kind, mb, stage, rank, index, ts, extra = {}) => ({
  name: `${kind}${mb}`, cat: 'compute', ph: 'X', ts, dur: 1, pid: rank + 1, tid: 1, // pipesim's pids are rank + 1
  args: { kind, mb, phase: 0, stage, rank, index, ...extra },
});
const trace = (events, other = {}) =>
  JSON.stringify({ traceEvents: events, otherData: { generator: 'pipesim', ranks: 2, stages: 2, directions: 1, micro_batches: 1, ...other } });
const goodEvents = () => [traceEvent('F', 0, 0, 0, 0, 0), traceEvent('B', 0, 0, 0, 1, 5), traceEvent('F', 0, 1, 1, 0, 1), traceEvent('B', 0, 1, 1, 1, 2)];
VALID.trace = trace(goodEvents());

const op = (o) => ({ op: 'F', mb: 0, stage: 0, ...o });
const jsonSchedule = (ops0, extra = {}) => JSON.stringify({ micro_batches: 1, per_rank: [{ ops: ops0 }], ...extra });
const nested = (depth) => '{"micro_batches":1,"per_rank":' + '['.repeat(depth) + ']'.repeat(depth) + '}';

/** [class, text, expected refusal, or null when the text is a valid schedule after all]. */
function importCases() {
  const J = 'import JSON: ';
  const A = 'import actions: ';
  const T = 'import Chrome trace: ';
  const cases = [
    [J + 'not JSON', '{', /does not parse/],
    [J + 'not JSON', '{"micro_batches": 1, "per_rank": [}', /does not parse/],
    [J + 'not JSON', '{"micro_batches": NaN, "per_rank": []}', /does not parse/],
    [J + 'not JSON', '{"micro_batches": Infinity, "per_rank": []}', /does not parse/],
    [J + 'not JSON', '\u0000\u0001{\uFFFF', /./],
    [J + 'wrong types', '[]', /JSON array/],
    [J + 'wrong types', '{"micro_batches": "1", "per_rank": []}', /micro_batches/],
    [J + 'wrong types', '{"micro_batches": 1, "per_rank": "x"}', /per_rank/],
    [J + 'wrong types', '{"micro_batches": 1, "per_rank": [5]}', /'ops' is missing/],
    [J + 'wrong types', jsonSchedule([5]), /an op is an object/],
    [J + 'wrong types', jsonSchedule([op({ op: 7 })]), /an op is an object/],
    [J + 'wrong types', jsonSchedule([op({ mb: '0' })]), /'mb'/],
    [J + 'wrong types', jsonSchedule([op({ stage: null })]), /'stage'/],
    [J + 'wrong types', jsonSchedule([op({ mb: true })]), /'mb'/],
    [J + 'missing fields', '{}', /micro_batches/],
    [J + 'missing fields', '{"micro_batches": 1}', /per_rank/],
    [J + 'missing fields', jsonSchedule([{ op: 'F', stage: 0 }]), /'mb' is missing/],
    [J + 'missing fields', jsonSchedule([{ mb: 0, stage: 0 }]), /an op is an object/],
    [J + 'missing fields', '{"micro_batches": 1, "per_rank": []}', /at least one rank/],
    [J + 'huge, fractional or negative numbers', '{"micro_batches": 1e30, "per_rank": []}', /micro_batches/],
    [J + 'huge, fractional or negative numbers', '{"micro_batches": 1e400, "per_rank": []}', /does not parse/],
    [J + 'huge, fractional or negative numbers', '{"micro_batches": -5, "per_rank": []}', /micro_batches/],
    [J + 'huge, fractional or negative numbers', '{"micro_batches": 2.5, "per_rank": []}', /micro_batches/],
    [J + 'huge, fractional or negative numbers', '{"micro_batches": 0, "per_rank": []}', /micro_batches/],
    [J + 'huge, fractional or negative numbers', jsonSchedule([op({ mb: 1e30 })]), /'mb'/],
    [J + 'huge, fractional or negative numbers', jsonSchedule([op({ stage: -1 })]), /'stage'/],
    [J + 'huge, fractional or negative numbers', jsonSchedule([op({ mb: 0.5 })]), /'mb'/],
    [J + 'huge, fractional or negative numbers', jsonSchedule([op({ mb: 18446744073709551616 })]), /'mb'/],
    [J + 'huge, fractional or negative numbers', '{"micro_batches": 1, "directions": 3, "per_rank": []}', /directions/],
    [J + 'duplicate or missing ops', jsonSchedule([op({}), op({}), op({ op: 'B' })]), /twice/],
    [J + 'duplicate or missing ops', jsonSchedule([op({})]), /no backward/],
    [J + 'duplicate or missing ops', jsonSchedule([op({ op: 'B' })]), /./],
    [J + 'duplicate or missing ops', '{"micro_batches": 2, "per_rank": [{"ops": [{"op": "F", "mb": 0, "stage": 0}, {"op": "B", "mb": 0, "stage": 0}]}]}', /micro-batch 1/],
    [J + 'cycle (deadlock)', JSON.stringify({ micro_batches: 2, per_rank: [{ ops: ['F0', 'B0', 'F1', 'B1'].map((a) => op({ op: a[0], mb: +a[1], stage: 0 })) }, { ops: ['F1', 'B1', 'F0', 'B0'].map((a) => op({ op: a[0], mb: +a[1], stage: 1 })) }] }), /^deadlock/],
    [J + 'over a limit', JSON.stringify({ micro_batches: 1, per_rank: Array.from({ length: 4097 }, (_, r) => ({ ops: [op({ stage: r }), op({ op: 'B', stage: r })] })) }), /at most 4096 ranks/],
    [J + 'over a limit', '{"micro_batches": 4194305, "per_rank": []}', /micro_batches/],
    [J + 'deeply nested', nested(100000), /./],
    [J + 'deeply nested', '{"a":'.repeat(50000) + '1' + '}'.repeat(50000), /./],
    [J + 'markup in strings', jsonSchedule([op({ op: MARKUP[0] })]), /unknown op/],
    [J + 'markup in strings', JSON.stringify({ [MARKUP[1]]: 1 }), /micro_batches/],
    [A + 'malformed tokens', '0F0,0B0\n1F0,1B0\n2X1', /line 3, token '2X1'/],
    [A + 'malformed tokens', 'null', /token 'null'/],
    [A + 'malformed tokens', '(0F0;0B1', /never closed/],
    [A + 'malformed tokens', '\u0000\u0007\u001b[31m', /./],
    [A + 'malformed tokens', '💥F0', /token/],
    [A + 'huge or negative numbers', '0F99999999999999999999,0B0', /token/],
    [A + 'huge or negative numbers', '0F-1,0B-1', /token '0F-1'/],
    [A + 'huge or negative numbers', '1e30F0', /token/],
    [A + 'huge or negative numbers', '0FNaN', /token/],
    [A + 'huge or negative numbers', '0F1048576,0B1048576', /token/],
    [A + 'duplicate or missing ops', '0F0,0F0,0B0,0B0', /twice/],
    [A + 'duplicate or missing ops', '0F0', /no backward/],
    [A + 'duplicate or missing ops', '0B0,0F0', /before the forward/],
    [A + 'duplicate or missing ops', '0F0,0B0\n2F0,2B0', /stage 1 is run by no rank/],
    [A + 'duplicate or missing ops', '0F0,0I0', /without its W/],
    [A + 'cycle (deadlock)', '0F0,0B0,0F1,0B1\n1F1,1B1,1F0,1B0', /^deadlock/],
    [A + 'over a limit', Array.from({ length: 4097 }, (_, r) => `${r}F0,${r}B0`).join('\n'), /at most 4096 ranks/],
    [A + 'markup in tokens', MARKUP.join(','), /token/],
    [A + 'markup in tokens', `0F0,${MARKUP[1]}`, /token/],
    [T + 'not written by pipesim', trace(goodEvents(), { generator: MARKUP[0] }), /not written by pipesim/],
    [T + 'not written by pipesim', '{"traceEvents": []}', /not written by pipesim/],
    [T + 'wrong types', '{"traceEvents": 5, "otherData": {"generator": "pipesim"}}', /./],
    [T + 'wrong types', trace('x'), /./],
    [T + 'wrong types', trace([5, null, 'x']), /./],
    [T + 'wrong types', trace(goodEvents(), { micro_batches: 'one' }), /./],
    [T + 'wrong types', trace(goodEvents().map((e) => ({ ...e, args: 'x' }))), /./],
    [T + 'wrong types', trace(goodEvents().map((e, i) => (i ? e : { ...e, args: { ...e.args, mb: '0' } }))), /./],
    [T + 'missing fields', trace(goodEvents().map(({ args, ...e }) => e)), /./],
    [T + 'missing fields', trace(goodEvents().map((e) => ({ ...e, args: { kind: e.args.kind } }))), /./],
    [T + 'missing fields', JSON.stringify({ traceEvents: goodEvents() }), /not written by pipesim/],
    [T + 'huge, fractional or negative numbers', trace(goodEvents().map((e, i) => (i ? e : { ...e, args: { ...e.args, mb: 1e30 } }))), /./],
    [T + 'huge, fractional or negative numbers', trace(goodEvents().map((e, i) => (i ? e : { ...e, args: { ...e.args, stage: -1 } }))), /./],
    // Timestamps and indices only order a rank's ops: odd but ordered values read as that order.
    [T + 'huge, fractional or negative numbers', trace(goodEvents().map((e, i) => (i ? e : { ...e, args: { ...e.args, index: 0.5 } }))), null],
    [T + 'huge, fractional or negative numbers', trace(goodEvents()).replace('"ts":0', '"ts":1e400'), /does not parse/],
    [T + 'huge, fractional or negative numbers', trace(goodEvents()).replace('"ts":0', '"ts":NaN'), /does not parse/],
    [T + 'huge, fractional or negative numbers', trace(goodEvents().map((e) => ({ ...e, ts: -1e308 }))), null],
    [T + 'huge, fractional or negative numbers', trace(goodEvents(), { micro_batches: 1e30 }), /./],
    [T + 'duplicate or missing ops', trace([...goodEvents(), goodEvents()[0]]), /./],
    [T + 'duplicate or missing ops', trace(goodEvents().slice(1)), /./],
    [T + 'cycle (deadlock)', trace([traceEvent('F', 0, 0, 0, 0, 0), traceEvent('B', 0, 0, 0, 1, 1), traceEvent('F', 1, 0, 0, 2, 2), traceEvent('B', 1, 0, 0, 3, 3),
      traceEvent('F', 1, 1, 1, 0, 0), traceEvent('B', 1, 1, 1, 1, 1), traceEvent('F', 0, 1, 1, 2, 2), traceEvent('B', 0, 1, 1, 3, 3)], { micro_batches: 2 }), /^deadlock/],
    [T + 'markup in strings', trace(goodEvents().map((e) => ({ ...e, name: MARKUP[1], args: { ...e.args, kind: MARKUP[0] } }))), /./],
  ];
  return cases;
}

/** Large files, through the file picker only (pasting megabytes is not how they arrive). */
function largeImportCases() {
  const mb = 1 << 20;
  return [
    ['import: very large file', '0F0,'.repeat(2 * mb), /./], // 8 MB of one repeated op
    // Large but within the limits: 200000 micro-batches on one rank (3.4 MB) is simulated, not refused.
    ['import: very large file', Array.from({ length: 200000 }, (_, i) => `0F${i},0B${i}`).join(','), null, 600000],
    ['import: very large file', Array.from({ length: 200000 }, (_, i) => `0F${i},0B${i}`).join(',') + ',0F200000', /no backward/],
    ['import: very large file', '{"micro_batches": 1, "per_rank": [' + '{"ops": []},'.repeat(300000) + '{"ops": []}]}', /at most 4096 ranks/],
  ];
}

async function openCustom(page) {
  await openAt(page, '?schedule=custom');
  await page.fill('[data-testid=custom-schedule]', VALID.actions);
  await assertWorks(page, 6, 'a valid custom schedule');
}

let scratch;
after(() => scratch && rmSync(scratch, { recursive: true, force: true }));

/** Pastes `text` into the custom schedule box, or picks it as a file. */
async function importText(page, text, how) {
  if (how === 'paste' && text.length <= 10000) {
    await page.fill('[data-testid=custom-schedule]', text);
  } else if (how === 'paste') {
    // What a paste does, without Playwright's typing of thousands of lines one edit at a time.
    await page.evaluate((value) => {
      const box = document.querySelector('[data-testid=custom-schedule]');
      box.value = value;
      box.dispatchEvent(new Event('input', { bubbles: true }));
    }, text);
  } else if (text.length > 40 << 20) {
    // Playwright hands over at most 50 MB as a buffer: larger files go through the disk.
    scratch ??= mkdtempSync(join(tmpdir(), 'pipesim-hostile-'));
    writeFileSync(join(scratch, 'schedule.json'), text);
    await page.setInputFiles('[data-testid=custom-file]', join(scratch, 'schedule.json'));
  } else {
    await page.setInputFiles('[data-testid=custom-file]', { name: 'schedule.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  }
}

const formatOf = (cls) => (cls.includes('actions') ? 'actions' : cls.includes('trace') ? 'trace' : 'json');

test('hostile imports, pasted and picked as files: refused with the reason, nothing injected, the next import works', async () => {
  const { page, problems } = await browser.page(FIG5);
  await openCustom(page);
  for (const [cls, text, refusal] of importCases()) {
    for (const how of ['paste', 'file']) {
      const label = `${cls} (${how}) ${JSON.stringify(text.slice(0, 100))}`;
      await importText(page, text, how);
      if (refusal) await assertRefused(page, refusal, label);
      else await assertWorks(page, 6, label);
      await assertNothingInjected(page, label);
      // The same format, valid, simulates again.
      await importText(page, VALID[formatOf(cls)], how);
      await assertWorks(page, 6, `${label}, then a valid ${formatOf(cls)} schedule`);
      assert.deepEqual(problems, [], label);
      count(cls);
    }
  }
  await recoverWithFig5(page, 'after every hostile import');
  assert.deepEqual(problems, []);
  await page.close();
});

test('very large imported files are refused without taking the page down', async () => {
  const { page, problems } = await browser.page(FIG5);
  await openCustom(page);
  for (const [cls, text, refusal, makespan] of largeImportCases()) {
    const label = `${cls} (${text.length} bytes)`;
    await importText(page, text, 'file');
    if (refusal) await assertRefused(page, refusal, label);
    else await assertWorks(page, makespan, label);
    // Megabytes are not written into the text box (that alone would freeze the page): a note says so.
    assert.equal(await page.isVisible('[data-testid=custom-not-shown]'), true, `${label}: the note on the file not shown`);
    assert.equal(await page.inputValue('[data-testid=custom-schedule]'), '', label);
    await assertNothingInjected(page, label);
    await importText(page, VALID.actions, 'file');
    await assertWorks(page, 6, `${label}, then a valid schedule`);
    assert.deepEqual(problems, [], label);
    count(cls);
  }
  // Over the 64 MiB input limit: the page refuses the file by its size before reading any of it, then
  // the next import works.
  await importText(page, 'x'.repeat(65 << 20), 'file');
  await page.waitForSelector('[data-testid=custom-file-error]:not([hidden])');
  assert.equal((await page.textContent('[data-testid=custom-file-error]')).trim(),
               'Not accepted: the file has 68,157,440 bytes; a custom schedule may be at most 67,108,864 bytes.');
  await importText(page, VALID.actions, 'file');
  await assertWorks(page, 6, 'a 65 MiB file, then a valid schedule');
  assert.deepEqual(problems, []);
  count('import: very large file');
  await recoverWithFig5(page, 'after the large files');
  await page.close();
});
