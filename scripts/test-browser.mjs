#!/usr/bin/env node
// The page's Chromium suite (tests/browser/), as `npm test` runs it: one Chromium and one server of the
// built page for every file, started here once, instead of one of each per file. Files still run in
// processes of their own, several at a time, and every page still opens in a browser context of its own
// (own storage, cookies and cache: tests/browser/chromium.mjs), so no file sees another's state.
//
// The longest files start first, so that the suite does not end with one long file running alone while
// the other cores idle: each file's time in the last run is kept in artifacts/test-durations/browser.json
// (a file not timed yet, as in a fresh clone, is taken by its size, and starts before the timed ones).
// The order changes no result: the files share nothing but the browser process. Each file's output is
// printed whole when it ends, then every file's time.
// Usage: node scripts/test-browser.mjs [--concurrency=N] [FILE...]   (default: every file, N = 3)
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';
import { LAUNCH_OPTIONS, SHARED_CHROMIUM } from '../tests/browser/chromium.mjs';
import { ARTIFACTS, DIST, SHARED_PAGE } from '../tests/browser/harness.mjs';

const args = process.argv.slice(2);
const concurrency = Number(args.find((a) => a.startsWith('--concurrency='))?.split('=')[1] ?? 3);
const dir = fileURLToPath(new URL('../tests/browser/', import.meta.url));
const files = args.filter((a) => !a.startsWith('--'));
const chosen = files.length ? files : readdirSync(dir).filter((f) => f.endsWith('.test.mjs')).map((f) => dir + f);

const durationsDir = `${ARTIFACTS}/test-durations`;
const durationsFile = `${durationsDir}/browser.json`;
const lastTimes = readTimes();
const order = longestFirst(chosen, lastTimes);

const browser = await chromium.launchServer(LAUNCH_OPTIONS);
const { server, url } = await startServer({ root: DIST });
const env = { ...process.env, [SHARED_CHROMIUM]: browser.wsEndpoint(), [SHARED_PAGE]: url };
const results = await runPool(order, concurrency, (file) => runFile(file, env));
server.close();
await browser.close();

writeTimes({ ...lastTimes, ...Object.fromEntries(results.filter((r) => r.status === 0).map((r) => [basename(r.file), Math.round(r.ms)])) });
console.log(`\n== browser files (wall seconds, in the order they started; ${concurrency} at a time)`);
for (const r of results) console.log(`   ${r.status === 0 ? 'ok    ' : 'FAILED'} ${(r.ms / 1000).toFixed(1).padStart(6)}  ${basename(r.file)}`);
const failed = results.filter((r) => r.status !== 0);
console.log(failed.length ? `== ${failed.length} of ${results.length} files failed` : `== all ${results.length} files passed`);
process.exit(failed.length ? 1 : 0);

/** The files, longest first: untimed ones (largest first), then by their last time. */
function longestFirst(list, times) {
  const key = (f) => times[basename(f)];
  const untimed = list.filter((f) => key(f) === undefined).sort((a, b) => statSync(b).size - statSync(a).size || a.localeCompare(b));
  const timed = list.filter((f) => key(f) !== undefined).sort((a, b) => key(b) - key(a) || a.localeCompare(b));
  return [...untimed, ...timed];
}

function readTimes() {
  try {
    const times = JSON.parse(readFileSync(durationsFile, 'utf8'));
    return times && typeof times === 'object' ? times : {};
  } catch {
    return {}; // none yet, or unreadable: every file counts as untimed
  }
}

function writeTimes(times) {
  mkdirSync(durationsDir, { recursive: true });
  writeFileSync(durationsFile, `${JSON.stringify(times, null, 1)}\n`);
}

/** Runs `task` on every item, at most `limit` at once, in order; the results in the order started. */
async function runPool(items, limit, task) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const k = next++;
      results[k] = await task(items[k]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** One file under node --test in a process of its own; its output is printed once it ends. */
function runFile(file, childEnv) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout.on('data', (d) => output.push(d));
  child.stderr.on('data', (d) => output.push(d));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const status = code ?? (signal ? 1 : 0);
      process.stdout.write(`\n== ${basename(file)}: ${status === 0 ? 'ok' : 'FAILED'}, ${(ms / 1000).toFixed(1)} s\n`);
      process.stdout.write(Buffer.concat(output));
      resolve({ file, status, ms });
    });
  });
}
