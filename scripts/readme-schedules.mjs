#!/usr/bin/env node
// Writes README.md's schedules table from the registry: the text between the two markers below is
// `pipesim list --format markdown` (the native CLI in build/). With --check it only compares, and
// fails when the README's table is not the registry's (the Catch2 suite checks the same).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const readmePath = `${root}README.md`;
const BEGIN = '<!-- schedules: written by scripts/readme-schedules.mjs from `pipesim list --format markdown` -->\n';
const END = '<!-- /schedules -->';

const readme = readFileSync(readmePath, 'utf8');
const begin = readme.indexOf(BEGIN);
const end = readme.indexOf(END, begin);
if (begin < 0 || end < 0) {
  console.error(`readme-schedules: README.md has no "${BEGIN.trim()}" ... "${END}" block`);
  process.exit(2);
}
const table = execFileSync(`${root}build/pipesim`, ['list', '--format', 'markdown'], { encoding: 'utf8' });
const written = readme.slice(0, begin + BEGIN.length) + table + readme.slice(end);
if (process.argv.includes('--check')) {
  if (written !== readme) {
    console.error('readme-schedules: README.md\'s schedules table is not the registry\'s; run node scripts/readme-schedules.mjs');
    process.exit(1);
  }
} else if (written !== readme) {
  writeFileSync(readmePath, written);
  console.log('readme-schedules: README.md\'s schedules table rewritten');
}
