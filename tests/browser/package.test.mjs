// The npm package as a user gets it: `npm pack` (whose prepack stages dist/ with scripts/package.mjs),
// then `npm install` of the tarball into an empty project, offline, and imports through its exports.
// Runs after the page build (scripts/test.sh), since the package carries the built element.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openBrowser } from './harness.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
let work;
let packed;

const run = (command, args, cwd) => {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `${command} ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
};

before(() => {
  work = mkdtempSync(join(tmpdir(), 'pipesim-package-'));
  [packed] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], ROOT));
  const project = join(work, 'project');
  run('mkdir', ['-p', project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(work, packed.filename)], project);
});
after(() => work && rmSync(work, { recursive: true, force: true }));

test('npm pack gives pipesim-VERSION.tgz with the built element, the course widget, the WebAssembly API and its types, and no sources', () => {
  assert.equal(packed.filename, `pipesim-${version}.tgz`);
  const files = packed.files.map((f) => f.path);
  for (const wanted of ['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json', 'dist/embed/pipesim-timeline.js', 'dist/embed/pipesim-timeline.d.ts',
    'dist/embed/figures-pipesim.js', 'dist/pipesim-offline.html', 'dist/wasm/pipesim_engine.mjs', 'dist/wasm/pipesim_engine.wasm', 'dist/wasm/pipesim_engine.d.mts',
    'dist/wasm/engine.node.mjs', 'dist/wasm/pipesim_course.d.mts', 'dist/wasm/course.node.mjs',
    'dist/wasm/pipesim_tools.mjs', 'dist/wasm/pipesim_tools.wasm', 'dist/wasm/pipesim_tools.d.mts', 'dist/wasm/tools.node.mjs', 'dist/data/quiz_bank.json'])
    assert.ok(files.includes(wanted), `${wanted} is in the package`);
  assert.ok(files.some((f) => /^dist\/embed\/assets\/.*\.wasm$/.test(f)), "the element's .wasm is in the package");
  assert.deepEqual(files.filter((f) => /^(core|wasm|web|tests|scripts)\//.test(f)), []);
});

test('installed, the package exports the engine, the course and the tools for Node, the element and the course widget', () => {
  const project = join(work, 'project');
  const script = `
    const engine = await (await import('pipesim')).default();
    const summary = JSON.parse(engine.simulateJson({ schedule: 'dualpipe', ranks: 8, microBatches: 20 }, 'summary').json);
    const course = await (await import('pipesim/course')).default();
    const quiz = course.courseQuiz('en');
    const tools = await (await import('pipesim/tools')).default();
    const csv = tools.exportText({ schedule: 'dualpipe', ranks: 8, microBatches: 20 }, 'csv', 0).text;
    const element = import.meta.resolve('pipesim/element');
    const widget = import.meta.resolve('pipesim/course-widget');
    console.log(JSON.stringify({ makespan: summary.makespan, version: engine.version(), questions: quiz.questions.length, toolsVersion: tools.version(), csvLines: csv.trim().split('\\n').length, element, widget }));`;
  const out = JSON.parse(run('node', ['--input-type=module', '-e', script], project));
  assert.equal(out.makespan, 66);
  assert.equal(out.version, version);
  assert.equal(out.questions, 6);
  assert.equal(out.toolsVersion, version);
  assert.ok(out.csvLines > 1, 'the tools module writes the csv export');
  assert.ok(existsSync(fileURLToPath(out.element)) && out.element.endsWith('node_modules/pipesim/dist/embed/pipesim-timeline.js'));
  assert.ok(existsSync(fileURLToPath(out.widget)) && out.widget.endsWith('node_modules/pipesim/dist/embed/figures-pipesim.js'));
  // The quiz is the CLI's, byte for byte in JSON.
  const cli = spawnSync(join(ROOT, 'build/pipesim'), ['quiz', '--course'], { encoding: 'utf8' });
  const viaPackage = run('node', ['--input-type=module', '-e', "const c = await (await import('pipesim/course')).default(); console.log(JSON.stringify(c.courseQuiz('en')));"], project);
  assert.deepEqual(JSON.parse(viaPackage), JSON.parse(cli.stdout));
});

test("the page's footer shows the same one version, package.json's", async () => {
  const browser = await openBrowser();
  try {
    const { page, problems } = await browser.page();
    assert.equal(await page.textContent('#engine-version'), `engine ${version}`);
    assert.deepEqual(problems, []);
  } finally {
    await browser.close();
  }
});
