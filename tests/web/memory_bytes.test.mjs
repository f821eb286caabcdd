// The Memory tab's model runs (web/src/app/memory_bytes.ts) with a stand-in engine: which runs it
// asks for, the verdict it hands the panel for every compared schedule (core's `fits`, or the
// engine's refusal), and that a newer request supersedes one still waiting for the course module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModule } from './load.mjs';

const { MemoryBytes } = await loadWebModule('app/memory_bytes');
const { DEFAULT_STATE } = await loadWebModule('state/page_state');
const { PLAN_EXAMPLES } = await loadWebModule('model/plan_examples');

/** A model run as the course module returns it, its ranks' totals in bytes. */
const runOf = (schedule, totals, gpu = 80e9) => ({
  schedule,
  memory: { units: 'bytes', gpu_bytes: gpu, fits: totals.every((t) => t <= gpu) },
  per_rank: totals.map((total, rank) => ({ rank, memory_bytes: { rank, total } })),
});

function standIns({ runs = {}, loaded = Promise.resolve() } = {}) {
  const asked = [];
  const shown = [];
  const picked = [];
  const engine = {
    courseData: () => loaded,
    schedule: (name) => ({ uses_virtual_stages: name === 'virtual' }),
    simulateModel: (request) => {
      asked.push(request);
      const run = runs[request.schedule];
      if (run instanceof Error) throw run;
      return run;
    },
  };
  const panel = { showPicked: (id) => picked.push(id), showModel: (m) => shown.push(m) };
  return { engine, panel, asked, shown, picked };
}

const title = (name) => `title of ${name}`;

test('core\'s plan examples are offered by file name, with their JSON text', () => {
  assert.deepEqual(PLAN_EXAMPLES.map((e) => e.id), ['deepseek-v3', 'small-dense', 'moe-one-node-ep']);
  for (const e of PLAN_EXAMPLES) assert.equal(typeof JSON.parse(e.text).model.pp, 'number');
});

test('without a model nothing is run and the panel shows chunks', async () => {
  const s = standIns();
  await new MemoryBytes(s.engine, s.panel, title).update({ ...DEFAULT_STATE, memoryModel: '' });
  assert.deepEqual(s.picked, ['']);
  assert.deepEqual(s.asked, []);
  assert.deepEqual(s.shown, []);
});

test('the schedule on screen and every compared one run on the model; the verdicts are core\'s', async () => {
  const refused = Object.assign(new Error('chimera needs micro-batches to be a multiple of the stage count = 16'), { code: 'schedule_rule' });
  const s = standIns({ runs: { a: runOf('a', [50e9, 72e9]), b: runOf('b', [90e9, 361e9]), virtual: runOf('virtual', [10e9]), c: refused } });
  const state = { ...DEFAULT_STATE, schedule: 'a', compare: ['b', 'virtual', 'c'], virtualStages: '3', memoryModel: 'deepseek-v3' };
  await new MemoryBytes(s.engine, s.panel, title).update(state);
  const text = PLAN_EXAMPLES[0].text;
  // The file gives ranks and micro-batches; the page's virtual stages only for a schedule that has them.
  assert.deepEqual(s.asked, [
    { schedule: 'a', model: text },
    { schedule: 'b', model: text },
    { schedule: 'virtual', model: text, virtualStages: '3' },
    { schedule: 'c', model: text },
  ]);
  assert.equal(s.shown.length, 1);
  const [shown] = s.shown;
  assert.equal(shown.example.id, 'deepseek-v3');
  assert.equal(shown.run.schedule, 'a');
  assert.deepEqual(shown.verdicts, [
    { name: 'a', title: 'title of a', fits: true, peakBytes: 72e9 },
    { name: 'b', title: 'title of b', fits: false, peakBytes: 361e9 },
    { name: 'virtual', title: 'title of virtual', fits: true, peakBytes: 10e9 },
    { name: 'c', title: 'title of c', error: 'chimera needs micro-batches to be a multiple of the stage count = 16' },
  ]);
});

test('a refused schedule on screen is shown as its refusal, nothing drawn for it', async () => {
  const s = standIns({ runs: { a: new Error('no layout fits') } });
  await new MemoryBytes(s.engine, s.panel, title).update({ ...DEFAULT_STATE, schedule: 'a', compare: [], memoryModel: 'small-dense' });
  assert.deepEqual(s.shown[0].run, { error: 'no layout fits' });
});

test('a newer request supersedes one still waiting for the course module', async () => {
  let release;
  const loaded = new Promise((r) => (release = r));
  const s = standIns({ runs: { a: runOf('a', [1e9]), b: runOf('b', [2e9]) }, loaded });
  const memory = new MemoryBytes(s.engine, s.panel, title);
  const first = memory.update({ ...DEFAULT_STATE, schedule: 'a', compare: [], memoryModel: 'small-dense' });
  const second = memory.update({ ...DEFAULT_STATE, schedule: 'b', compare: [], memoryModel: 'small-dense' });
  release();
  await Promise.all([first, second]);
  assert.deepEqual(s.shown.map((m) => m.run.schedule), ['b']);
});

test('a course module that fails to load is said on the tab', async () => {
  const s = standIns({ loaded: Promise.reject(new Error('network down')) });
  await new MemoryBytes(s.engine, s.panel, title).update({ ...DEFAULT_STATE, memoryModel: 'small-dense' });
  assert.deepEqual(s.shown.map((m) => m.run), [{ error: 'network down' }]);
  assert.deepEqual(s.asked, []);
});
