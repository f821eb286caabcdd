#!/usr/bin/env node
// The page's Chromium suite (tests/browser/), as `npm test` runs it: one Chromium and one server of the
// built page for every file, started here once, instead of one of each per file. Files still run in
// processes of their own, several at a time, and every page still opens in a browser context of its own
// (own storage, cookies and cache: tests/browser/chromium.mjs), so no file sees another's state.
// Usage: node scripts/test-browser.mjs [--concurrency=N] [FILE...]   (default: every file, N = 3)
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './serve.mjs';
import { LAUNCH_OPTIONS, SHARED_CHROMIUM } from '../tests/browser/chromium.mjs';
import { DIST, SHARED_PAGE } from '../tests/browser/harness.mjs';

const args = process.argv.slice(2);
const concurrency = Number(args.find((a) => a.startsWith('--concurrency='))?.split('=')[1] ?? 3);
const dir = fileURLToPath(new URL('../tests/browser/', import.meta.url));
const files = args.filter((a) => !a.startsWith('--'));
const chosen = files.length ? files : readdirSync(dir).filter((f) => f.endsWith('.test.mjs')).sort().map((f) => dir + f);

const browser = await chromium.launchServer(LAUNCH_OPTIONS);
const { server, url } = await startServer({ root: DIST });
const env = { ...process.env, [SHARED_CHROMIUM]: browser.wsEndpoint(), [SHARED_PAGE]: url };
const child = spawn(process.execPath, ['--test', `--test-concurrency=${concurrency}`, ...chosen], { env, stdio: 'inherit' });
const status = await new Promise((resolve) => child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
server.close();
await browser.close();
process.exit(status);
