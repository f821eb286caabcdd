#!/usr/bin/env node
// The WebAssembly half of `npm run bench`: times the Node build of the engine on what the page asks of
// it (a slider move, the Charts tab, a big run, the chunk model, the planner, an export), plus module
// instantiation and the size of the .wasm the page downloads. Same method as pipesim_bench: a
// warm-up that also sizes the samples, then several samples, median and fastest per call.
// Checks scripts/bench-targets.json ("wasm") and exits 1 when a target fails, 2 on bad usage.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { cpuPressurePercent, parseOptions } from './bench-common.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
/** The cases, as data in core (the script names no schedule and no export format). */
const CASES = JSON.parse(readFileSync(`${root}core/bench/cases.json`, 'utf8'));
const usage = `usage: node scripts/bench-wasm.mjs [--dir build-wasm/wasm] [--json] [--json-out FILE] [--targets FILE] [--samples N] [--quick]`;

function parseArgs(argv) {
  const defaults = { dir: `${root}build-wasm/wasm`, json: false, jsonOut: '', targets: `${root}scripts/bench-targets.json`, samples: 7, minSampleMs: 20 };
  const a = parseOptions(argv, defaults, {
    '--dir': (o, value) => (o.dir = resolve(value())),
    '--json': (o) => (o.json = true),
    '--json-out': (o, value) => (o.jsonOut = value()),
    '--targets': (o, value) => (o.targets = value()),
    '--samples': (o, value) => (o.samples = Number(value())),
    '--quick': (o) => Object.assign(o, { samples: 3, minSampleMs: 5 }),
  });
  if (!(a.samples >= 1)) throw new Error('--samples must be at least 1');
  return a;
}

// ---- timing ---------------------------------------------------------------------------------------

function medianAndMin(ms) {
  const s = [...ms].sort((x, y) => x - y);
  const n = s.length;
  return { medianMs: n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2, minMs: s[0], samples: n };
}

// The page measured is one the user has been using: V8 first runs WebAssembly from its baseline
// compiler (Liftoff) and swaps in optimized code compiled in the background, which on a busy 2-core
// machine takes a few hundred milliseconds. Every case warms up that long, even with --quick.
const WARM_UP_MS = 300;

// After the warm-up (at least two calls), whose average sizes the samples above the clock's grain.
function timeCalls(call, plan) {
  let t0 = performance.now();
  let warmUp = 0;
  do {
    call();
    warmUp++;
  } while (warmUp < 2 || performance.now() - t0 < WARM_UP_MS);
  const estimate = Math.max((performance.now() - t0) / warmUp, 1e-6);
  const calls = Math.min(1e6, Math.max(1, Math.ceil(plan.minSampleMs / estimate)));
  const perCall = [];
  for (let s = 0; s < plan.samples; s++) {
    t0 = performance.now();
    for (let c = 0; c < calls; c++) call();
    perCall.push((performance.now() - t0) / calls);
  }
  return { ...medianAndMin(perCall), callsPerSample: calls };
}

// ---- the engine -----------------------------------------------------------------------------------

function loadFactory(dir, module = 'pipesim_engine') {
  const require = createRequire(import.meta.url);
  return require(`${dir}/${module}_node.cjs`);
}

/** The course module (quiz, lessons, planner), given core/data's course files as the page gives them
 *  when the course first needs it. */
async function loadCourse(dir) {
  const course = await loadFactory(dir, 'pipesim_course')({ wasmBinary: readFileSync(`${dir}/pipesim_course_node.wasm`) });
  for (const name of ['quiz_bank', 'lesson_text', 'planner_text'])
    course.provideCourseData(name, readFileSync(new URL(`../core/data/${name}.json`, import.meta.url), 'utf8'));
  return course;
}

function must(value) {
  if (value && value.error !== undefined) throw new Error(`engine refused a benchmark request: ${value.error}`);
  return value;
}

const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

// ---- the cases ------------------------------------------------------------------------------------

async function benchInstantiation(report, a, factory) {
  const section = 'module: size and instantiation';
  const page = readFileSync(`${a.dir}/pipesim_engine.wasm`);
  report.value('wasm.size_kib', section, 'pipesim_engine.wasm (what the page downloads)', page.length / 1024, 'KiB');
  report.value('wasm.gzip_kib', section, 'the same, gzip -9', gzipSync(page, { level: 9 }).length / 1024, 'KiB');
  report.value('wasm.js_kib', section, 'pipesim_engine.mjs (its JavaScript loader)', statSync(`${a.dir}/pipesim_engine.mjs`).size / 1024, 'KiB');
  const course = readFileSync(`${a.dir}/pipesim_course.wasm`);
  report.value('wasm.course.size_kib', section, 'pipesim_course.wasm (loaded when the course or planner first needs it)', course.length / 1024, 'KiB');
  report.value('wasm.course.gzip_kib', section, 'the same, gzip -9', gzipSync(course, { level: 9 }).length / 1024, 'KiB');
  const tools = readFileSync(`${a.dir}/pipesim_tools.wasm`);
  report.value('wasm.tools.size_kib', section, 'pipesim_tools.wasm (loaded by the first download, Chunk tab or profile)', tools.length / 1024, 'KiB');
  report.value('wasm.tools.gzip_kib', section, 'the same, gzip -9', gzipSync(tools, { level: 9 }).length / 1024, 'KiB');
  // What a page load costs after the download: compile, instantiate, Embind setup and the first
  // simulate(), each in a fresh Node process so that no compiled code is reused.
  const times = [];
  for (let i = 0; i < Math.max(3, a.samples); i++) times.push(coldStartMs(a.dir));
  report.timed('wasm.cold_start', section, 'fresh process: instantiate + first simulate()', 0, { ...medianAndMin(times), callsPerSample: 1 });
  // The same again in this process, where V8 may reuse what it compiled before.
  const bytes = readFileSync(`${a.dir}/pipesim_engine_node.wasm`);
  const warm = [];
  for (let i = 0; i < Math.max(3, a.samples); i++) {
    const t0 = performance.now();
    must((await factory({ wasmBinary: bytes })).simulate({}));
    warm.push(performance.now() - t0);
  }
  report.timed('wasm.warm_start', section, 'same process again: instantiate + simulate()', 0, { ...medianAndMin(warm), callsPerSample: 1 });
}

function coldStartMs(dir) {
  const script = `
    const { readFileSync } = require('node:fs');
    const factory = require(${JSON.stringify(`${dir}/pipesim_engine_node.cjs`)});
    const bytes = readFileSync(${JSON.stringify(`${dir}/pipesim_engine_node.wasm`)});
    const t0 = performance.now();
    factory({ wasmBinary: bytes }).then((engine) => {
      if (engine.simulate({}).error !== undefined) process.exit(1);
      console.log(performance.now() - t0);
    });`;
  const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  const ms = Number(child.stdout.trim());
  if (child.status !== 0 || !Number.isFinite(ms)) throw new Error(`cold start failed: ${child.stderr}`);
  return ms;
}

function benchPage(report, a, engine) {
  const section = 'page: engine.simulate() per slider move, and big runs';
  const cases = CASES.wasm_simulate.map((c) => [c.id, c.label, c.request]);
  for (const [id, label, request] of cases) {
    const ops = must(engine.simulate(request)).ops.count;
    report.timed(id, section, label, ops, timeCalls(() => engine.simulate(request), a));
  }
}

// The native target's case, as the CLI's `simulate --format summary` does it: generate, validate,
// simulate, measure and write the summary JSON, inside the module (no ops cross into JavaScript).
function benchTargetCase(report, a, engine) {
  const { id, section, label, request } = CASES.wasm_target;
  const ops = JSON.parse(engine.simulateJson(request, 'summary').json).op_count;
  report.timed(id, section, label, ops,
    timeCalls(() => engine.simulateJson(request, 'summary').json.length, a));
}

// Exactly the Charts tab's calls (web/src/views/charts_panel.ts) for three schedules at 8 ranks and
// 20 micro-batches: micro-batches 1..128 (its most, reached from 32 ranks on) and ranks 1..32.
function benchSweep(report, a, engine) {
  const { section, schedules, ranks: atRanks, microBatches } = CASES.charts_sweep;
  const requests = schedules.map((schedule) => ({ schedule, ranks: atRanks, microBatches }));
  const micro = range(1, 128);
  const ranks = range(1, 32);
  const byMicro = timeCalls(() => requests.forEach((r) => must(engine.sweep(r, 'micro_batches', micro))), a);
  report.timed('sweep.micro_batches', section, '3 x 128 micro-batch values at 8 ranks', 0, byMicro);
  const byRanks = timeCalls(() => requests.forEach((r) => must(engine.sweep(r, 'ranks', ranks))), a);
  report.timed('sweep.ranks', section, '3 x 32 rank values at 20 micro-batches', 0, byRanks);
  report.value('sweep.charts_tab_ms', section, 'both: one Charts tab update (fastest samples)', byMicro.minMs + byRanks.minMs, 'ms');
}

// The planner's search as the page's worker runs it (planSearchBegin, then steps): every schedule,
// virtual stages and layers per stage of small-dense.json at pipeline size 8, which its 64 sequences
// per iteration make 8 ranks x 64 micro-batches, on the engine's metrics-only path.
function benchPlanSearch(report, a, course) {
  const section = 'planner search (the page worker\'s task)';
  const input = readFileSync(`${root}core/data/plan_examples/small-dense.json`, 'utf8');
  let configurations = 0;
  const search = () => {
    let progress = must(course.planSearchBegin(input, { pp: [8] }));
    while (progress.done < progress.total) progress = must(course.planSearchStep(8));
    const result = must(course.planSearchResult(1));
    if (result.best[0].pp !== 8 || result.best[0].micro_batches !== 64) throw new Error('the search bench is not at 8 ranks x 64 micro-batches');
    configurations = result.configurations;
  };
  const timing = timeCalls(search, a);
  report.timed('plan_search.8x64', section, `one search: ${configurations} configurations of 8 ranks x 64 micro-batches`, 0, timing);
  report.value('plan_search.8x64.configs_per_s', section, 'configurations per second (fastest sample)', configurations / (timing.minMs / 1000), '/s');
}

function benchModels(report, a, engine, course) {
  const section = 'chunk model, planner, export, per call';
  report.timed('overlap.deepseek_v3', section, 'overlap({}) (DeepSeek-V3 workload)', 0, timeCalls(() => must(engine.overlap({})), a));
  const input = readFileSync(`${root}core/data/plan_examples/deepseek-v3.json`, 'utf8');
  report.timed('plan.deepseek_v3', section, 'plan(deepseek-v3.json)', 0, timeCalls(() => must(course.plan(input, 'en')), a));
  // Fig. 5 is the core's first preset.
  const p = engine.presets()[0];
  const fig5 = { schedule: p.schedule, ranks: p.ranks, microBatches: p.micro_batches };
  for (const { id, label, format } of CASES.fig5_exports)
    report.timed(id, section, label, 0, timeCalls(() => must(engine.exportText(fig5, format, 0)), a));
}

// ---- the report -----------------------------------------------------------------------------------

class Report {
  constructor() {
    this.rows = [];
  }
  timed(id, section, label, ops, t) {
    this.rows.push({ kind: 'timed', id, section, label, ops, ...t });
  }
  value(id, section, label, value, unit) {
    this.rows.push({ kind: 'value', id, section, label, value, unit });
  }
  metric(name) {
    const v = this.rows.find((r) => r.kind === 'value' && r.id === name);
    if (v) return v.value;
    const dot = name.lastIndexOf('.');
    const r = this.rows.find((x) => x.kind === 'timed' && x.id === name.slice(0, dot));
    if (!r) return NaN;
    const field = name.slice(dot + 1);
    const perOp = (ms) => (r.ops > 0 ? (ms * 1e6) / r.ops : NaN);
    if (field === 'median_ms') return r.medianMs;
    if (field === 'min_ms') return r.minMs;
    if (field === 'ns_per_op') return perOp(r.medianMs);
    if (field === 'min_ns_per_op') return perOp(r.minMs);
    if (field === 'mops_per_s') return 1e3 / perOp(r.medianMs);
    if (field === 'best_mops_per_s') return 1e3 / perOp(r.minMs);
    return NaN;
  }
  table() {
    const ms = (v) => (v < 1 ? `${(v * 1e3).toFixed(2)} us` : v < 1000 ? `${v.toFixed(3)} ms` : `${(v / 1e3).toFixed(3)} s`);
    let out = '';
    for (const section of [...new Set(this.rows.map((r) => r.section))]) {
      out += `\n== ${section}\n`;
      const rows = this.rows.filter((r) => r.section === section);
      if (rows.some((r) => r.kind === 'timed'))
        out += `  ${''.padEnd(44)}${'ops'.padStart(9)}${'median'.padStart(13)}${'min'.padStart(13)}${'ns/op'.padStart(9)}${'Mops/s'.padStart(9)}\n`;
      for (const r of rows) {
        if (r.kind === 'value') {
          out += `  ${r.label.padEnd(44)}${r.value.toFixed(3).padStart(22)} ${r.unit}\n`;
          continue;
        }
        const ns = r.ops > 0 ? (r.medianMs * 1e6) / r.ops : NaN;
        out += `  ${r.label.padEnd(44)}${(r.ops > 0 ? String(r.ops) : '').padStart(9)}${ms(r.medianMs).padStart(13)}${ms(r.minMs).padStart(13)}`;
        out += `${(r.ops > 0 ? ns.toFixed(1) : '').padStart(9)}${(r.ops > 0 ? (1e3 / ns).toFixed(2) : '').padStart(9)}\n`;
      }
    }
    return out;
  }
  json() {
    const rows = this.rows.map((r) => {
      if (r.kind === 'value') return { id: r.id, section: r.section, label: r.label, value: r.value, unit: r.unit };
      const row = { id: r.id, section: r.section, label: r.label, median_ms: r.medianMs, min_ms: r.minMs, samples: r.samples, calls_per_sample: r.callsPerSample };
      if (r.ops > 0) {
        const perOp = (ms) => (ms * 1e6) / r.ops;
        Object.assign(row, { ops: r.ops, ns_per_op: perOp(r.medianMs), mops_per_s: 1e3 / perOp(r.medianMs), min_ns_per_op: perOp(r.minMs), best_mops_per_s: 1e3 / perOp(r.minMs) });
      }
      return row;
    });
    return { timed: rows.filter((r) => r.median_ms !== undefined), values: rows.filter((r) => r.value !== undefined) };
  }
}

// ---- targets --------------------------------------------------------------------------------------

// A metric this run did not produce fails, so renaming a case cannot quietly retire its target.
function checkTargets(path, report) {
  const targets = JSON.parse(readFileSync(path, 'utf8')).wasm;
  if (!Array.isArray(targets)) throw new Error(`${path}: no "wasm" array`);
  return targets.map((t) => {
    if (typeof t.metric !== 'string' || (t.max === undefined && t.min === undefined))
      throw new Error(`${path}: every target needs "metric" and "max" or "min"`);
    const value = report.metric(t.metric);
    const pass = Number.isFinite(value) && (t.max === undefined || value <= t.max) && (t.min === undefined || value >= t.min);
    return { metric: t.metric, value: Number.isFinite(value) ? value : null, max: t.max, min: t.min, pass, why: t.why ?? '' };
  });
}

function verdictsText(verdicts, path) {
  let out = `\n== targets (${path})\n`;
  for (const v of verdicts) {
    const bound = v.max !== undefined && v.min !== undefined ? `in [${v.min}, ${v.max}]` : v.max !== undefined ? `<= ${v.max}` : `>= ${v.min}`;
    const value = v.value === null ? 'missing' : Number(v.value.toPrecision(4)).toString();
    const again = v.again === undefined ? '' : `  (again: ${v.again === null ? 'missing' : Number(v.again.toPrecision(4))})`;
    out += `  ${v.pass ? 'PASS' : 'FAIL'}  ${v.metric.padEnd(48)} ${value.padStart(12)}  ${bound}${again}\n`;
    if (!v.pass) out += `        why this target: ${v.why}\n`;
  }
  return out;
}

// A shared machine can stall a process for seconds, so a failed target is measured again: it fails
// only if it fails in the second run too. Real regressions slow every run; a neighbour's burst does not.
function confirm(first, second) {
  return first.map((v, k) => (v.pass ? v : { ...v, again: second[k].value, pass: second[k].pass }));
}

// ---- main -----------------------------------------------------------------------------------------

async function runAll(a, factory) {
  const report = new Report();
  await benchInstantiation(report, a, factory);
  const engine = await factory({ wasmBinary: readFileSync(`${a.dir}/pipesim_engine_node.wasm`) });
  const course = await loadCourse(a.dir);
  benchPage(report, a, engine);
  benchTargetCase(report, a, engine);
  benchSweep(report, a, engine);
  benchModels(report, a, engine, course);
  benchPlanSearch(report, a, course);
  return report;
}

async function main() {
  let a;
  try {
    a = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`bench-wasm: ${e.message}\n${usage}`);
    return 2;
  }
  const factory = loadFactory(a.dir);
  if (!a.json) console.log(`bench-wasm: Node ${process.version}, ${a.samples} samples of >= ${a.minSampleMs} ms per case after a warm-up; median and fastest sample per call`);
  const report = await runAll(a, factory);
  let verdicts = checkTargets(a.targets, report);
  const json = { node: process.version, ...report.json() };
  if (!a.json) console.log(report.table());
  if (!verdicts.every((v) => v.pass)) {
    if (!a.json) console.log('A target failed: measuring everything again to confirm.');
    const again = await runAll(a, factory);
    verdicts = confirm(verdicts, checkTargets(a.targets, again));
    json.confirmation = again.json();
  }
  const pass = verdicts.every((v) => v.pass);
  const pressure = cpuPressurePercent();
  Object.assign(json, { targets: verdicts, pass, cpu_pressure_avg60_percent: pressure });
  if (a.json) console.log(JSON.stringify(json, null, 2));
  else {
    if (pressure !== null)
      console.log(`CPU pressure over the last minute: ${pressure.toFixed(0)}% (time a task here waited for a CPU; high means other load inflated the timings)`);
    console.log(verdictsText(verdicts, a.targets) + (pass ? '\nwasm: all targets PASS' : '\nwasm: FAIL'));
  }
  if (a.jsonOut) writeFileSync(a.jsonOut, `${JSON.stringify(json, null, 2)}\n`);
  return pass ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`bench-wasm: ${e.stack ?? e}`);
    process.exit(2);
  },
);
