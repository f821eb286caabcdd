#!/usr/bin/env node
// Measures every export format of the largest accepted run of each schedule through the CLI (time
// and peak resident memory, from /usr/bin/time), and through the WebAssembly module (time, and what it
// gives: the text or its refusal), and writes the table into docs/robustness.md between its markers
// <!-- exports-at-limits --> and <!-- /exports-at-limits -->, each schedule's rows as soon as they are
// measured. Usage: node scripts/measure-exports.mjs [SCHEDULE...] (only those; the others keep their
// rows). Needs build/pipesim and build-wasm/; takes tens of minutes: each run is up to 6.3 M ops.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadEngine } from '../tests/wasm/engine.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// PIPESIM_CLI: another build of the CLI to measure (default: this tree's build/pipesim).
const CLI = process.env.PIPESIM_CLI ?? `${root}build/pipesim`;
/** The largest accepted run of each schedule, as core/bench/cases.json lists them. */
const CASES = JSON.parse(readFileSync(`${root}core/bench/cases.json`, 'utf8'));
const RUNS = CASES.largest_accepted_runs.runs.map((r) => [r.schedule, r.ranks, r.microBatches, r.virtualStages]);

const args = ([schedule, ranks, mb, vs]) => ['simulate', '--schedule', schedule, '--ranks', `${ranks}`, '--micro-batches', `${mb}`,
  ...(vs > 1 ? ['--virtual-stages', `${vs}`] : [])];

function cli(run, format) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', CLI, ...args(run), '--format', format, '--output', '/dev/null'], { encoding: 'utf8' });
  const [seconds, kib] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  if (r.status !== 0) return { error: r.stderr.trim().split('\n')[0] };
  return { seconds, mib: kib / 1024 };
}

function opCount(run) {
  const r = spawnSync(CLI, [...args(run), '--format', 'summary'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${run[0]}: ${r.stderr}`);
  return JSON.parse(r.stdout).op_count;
}

const engine = await loadEngine();
/** Every export format of the core's table, in its order. */
const FORMATS = engine.exportFormats().map((f) => f.name);
function wasm(run, format) {
  const [schedule, ranks, microBatches, virtualStages] = run;
  const started = performance.now();
  try {
    const { text } = engine.exportText({ schedule, ranks, microBatches, virtualStages }, format, 0);
    return { seconds: (performance.now() - started) / 1000, bytes: text.length };
  } catch (e) {
    return { seconds: (performance.now() - started) / 1000, refused: e.code === 'limit_exceeded', error: e.message };
  }
}

const fmt = (n, d) => n.toFixed(d);
const doc = `${root}docs/robustness.md`;
const begin = '<!-- exports-at-limits -->';
const end = '<!-- /exports-at-limits -->';
const header = [
  '| Run (largest accepted) | Ops | Format | CLI: time, peak resident memory | WebAssembly module (Node): time, outcome | Measured (UTC), load average |',
  '|---|---|---|---|---|---|',
];

/** The table's rows now in the document, by schedule (the first word of a row's run). */
function rowsInDocument() {
  const text = readFileSync(doc, 'utf8');
  if (!text.includes(begin)) throw new Error(`docs/robustness.md has no ${begin} marker`);
  const table = text.slice(text.indexOf(begin), text.indexOf(end));
  const rows = new Map();
  for (const line of table.split('\n').filter((l) => /^\| [a-z0-9-]+ \d/.test(l))) {
    const schedule = line.slice(2).split(' ')[0];
    rows.set(schedule, [...(rows.get(schedule) ?? []), line]);
  }
  return rows;
}

/** Writes the table with `measured` (schedule -> rows) replacing those schedules' rows, in RUNS order. */
function writeTable(measured) {
  const rows = rowsInDocument();
  for (const [schedule, lines] of measured) rows.set(schedule, lines);
  const table = [...header, ...RUNS.flatMap(([schedule]) => rows.get(schedule) ?? [])].join('\n');
  const text = readFileSync(doc, 'utf8');
  writeFileSync(doc, text.replace(new RegExp(`${begin}[\\s\\S]*${end}`), `${begin}\n${table}\n${end}`));
}

// Schedules named on the command line measure only those; the others keep their rows. Each schedule's
// rows are written as soon as it is measured, each with when it was measured and the machine's load
// then, so that nobody reads a loaded machine's times as a quiet one's.
const only = process.argv.slice(2);
const measured = new Map();
const when = () => `${new Date().toISOString().slice(0, 16).replace('T', ' ')}, ${fmt(loadavg()[0], 1)} on ${cpus().length} cores`;
for (const run of RUNS.filter((r) => only.length === 0 || only.includes(r[0]))) {
  const ops = opCount(run);
  const lines = [];
  for (const format of FORMATS) {
    const c = cli(run, format);
    const w = wasm(run, format);
    const cliCell = c.error ? `error: ${c.error}` : `${fmt(c.seconds, 1)} s, ${fmt(c.mib, 0)} MiB`;
    const wasmCell = w.refused ? `refused in ${fmt(w.seconds, 2)} s (${/would take ([^,]+)/.exec(w.error)[1]})`
      : w.error ? `error: ${w.error}` : `${fmt(w.seconds, 1)} s, ${fmt(w.bytes / 2 ** 20, 1)} MiB of text`;
    lines.push(`| ${run[0]} ${run[1]} × ${run[2]}${run[3] > 1 ? ` × ${run[3]}` : ''} | ${ops.toLocaleString('en')} | ${format} | ${cliCell} | ${wasmCell} | ${when()} |`);
    console.log(lines.at(-1));
    if (engine.broken) throw new Error('the module broke');
  }
  measured.set(run[0], lines);
  writeTable(measured);
}
console.log('docs/robustness.md updated');
