#!/usr/bin/env node
// The last step of `npm run bench`: gathers the parts' results (artifacts/bench/native.json,
// wasm.json, size.json, page.json, python.json), prints the table of targets, and ends with
// ONE line of JSON, the run's headline numbers:
//   {"native_mops", "wasm_mops", "page_update_ms_p16_m64", "page_update_ms_p64_m512", "page_load_ms", "wasm_gzip_kb"}
// Every number is a median measured by this run (sizes are exact). A part that did not run gives null
// and fails. Exits 1 if a headline target fails.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('../artifacts/bench/', import.meta.url));
/** The native target's case, as core/bench/cases.json states it. */
const TARGET = JSON.parse(readFileSync(fileURLToPath(new URL('../core/bench/cases.json', import.meta.url)), 'utf8')).wasm_target.request;
const targetCase = `${TARGET.schedule} ${TARGET.ranks}x${TARGET.microBatches}`;

function read(name) {
  try {
    return JSON.parse(readFileSync(`${dir}${name}.json`, 'utf8'));
  } catch {
    return null;
  }
}

const timedRow = (report, id) => report?.timed?.find((r) => r.id === id) ?? null;
const valueRow = (report, id) => report?.values?.find((r) => r.id === id)?.value ?? null;
const numberOrNull = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

const native = read('native');
const wasm = read('wasm');
const size = read('size');
const page = read('page');
const python = read('python');

// The CLI case: the "pipesim simulate ... --format summary, process start included".
const nativeMops = numberOrNull(timedRow(native, 'cli.dualpipe.64x8192')?.mops_per_s);
const wasmMops = numberOrNull(timedRow(wasm, 'target.dualpipe.64x8192')?.mops_per_s);
const chromiumMops = numberOrNull(page?.chromium_wasm_mops);
const headline = {
  native_mops: nativeMops,
  wasm_mops: wasmMops,
  page_update_ms_p16_m64: numberOrNull(page?.page_update_ms_p16_m64),
  page_update_ms_p64_m512: numberOrNull(page?.page_update_ms_p64_m512),
  page_load_ms: numberOrNull(page?.page_load_ms),
  wasm_gzip_kb: numberOrNull(size?.wasm_gzip_kb),
};

const half = (v) => (v === null ? null : v / 2);
const targets = [
  { metric: 'native_mops', value: headline.native_mops, min: 20, what: `native CLI, ${targetCase} summary, process included (M ops/s)` },
  { metric: 'native slowest schedule', value: numberOrNull(valueRow(native, 'cli.slowest_mops_per_s')), min: 20, what: `every schedule through the CLI at ${TARGET.ranks}x${TARGET.microBatches} (M ops/s)` },
  { metric: 'engine bytes per op', value: numberOrNull(valueRow(native, 'memory.max_engine_bytes_per_op')), max: 32, what: "simulate()'s own arrays, worst schedule (B/op)" },
  { metric: 'wasm_mops', value: headline.wasm_mops, min: half(nativeMops), what: 'WebAssembly in Node, same case, >= half native (M ops/s)' },
  { metric: 'chromium wasm', value: chromiumMops, min: half(nativeMops), what: 'WebAssembly in Chromium, same case, >= half native (M ops/s)' },
  { metric: 'page_update_ms_p16_m64', value: headline.page_update_ms_p16_m64, max: 16, what: '3 schedules at 16x64 re-simulated and drawn (ms)' },
  { metric: 'page_update_ms_p64_m512', value: headline.page_update_ms_p64_m512, max: 100, what: '3 schedules at 64x512 re-simulated and drawn (ms)' },
  { metric: 'page_load_ms', value: headline.page_load_ms, max: 500, what: 'navigation to the first timeline drawn (ms)' },
  { metric: 'wasm_gzip_kb', value: headline.wasm_gzip_kb, max: 250, what: 'wasm + JS the page loads first, gzip -9 (kB)' },
];

const fmt = (v) => (v === null ? 'n/a' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
let failed = false;
console.log('\n== issue 8 targets (medians of this run)');
for (const t of targets) {
  const bound = t.min !== undefined ? `>= ${fmt(t.min)}` : `<= ${fmt(t.max)}`;
  const pass = t.value !== null && (t.min === undefined || (t.min !== null && t.value >= t.min)) && (t.max === undefined || t.value <= t.max);
  failed ||= !pass;
  console.log(`  ${pass ? 'PASS' : 'FAIL'}  ${t.metric.padEnd(26)}${fmt(t.value).padStart(9)}  ${bound.padEnd(10)} ${t.what}`);
}
for (const c of python?.cases ?? [])
  console.log(`  ratio  python list scheduling / pipesim CLI, ${c.schedule} ${c.ranks}x${c.micro_batches} (${c.ops} ops): ${c.python_over_pipesim.toFixed(1)}x${c.same_timings ? ', same timings' : ', TIMINGS DIFFER'}`);
console.log(JSON.stringify(headline));
process.exit(failed ? 1 : 0);
