// The Memory tab's model runs (web/src/app/memory_bytes.ts) with a stand-in for the engine client:
// which runs it asks for (the page's ranks and micro-batches, not the file's), the verdict it hands the
// panel for every compared schedule (core's `fits`, or the engine's refusal), that a superseded
// request draws nothing, and that a task failed whole is said once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadWebModule } from './load.mjs';

const { MemoryBytes } = await loadWebModule('app/memory_bytes');
const { DEFAULT_STATE } = await loadWebModule('state/page_state');
const { PLAN_EXAMPLES } = await loadWebModule('model/plan_examples');
const { SUPERSEDED } = await loadWebModule('engine/superseded');

/** A model run as the course module returns it, its ranks' totals in bytes. */
const runOf = (schedule, totals, gpu = 80e9) => ({
  schedule,
  memory: { units: 'bytes', gpu_bytes: gpu, fits: totals.every((t) => t <= gpu) },
  per_rank: totals.map((total, rank) => ({ rank, memory_bytes: { rank, total } })),
});

/** A stand-in for the client's simulateModels: each request's run from `runs` (an Error there is its
 *  refusal), or `answer` for the whole batch when given. */
function standIns({ runs = {}, answer } = {}) {
  const asked = [];
  const shown = [];
  const picked = [];
  const modelRuns = async (requests) => {
    asked.push(...requests);
    if (answer) return answer(requests);
    return requests.map((r) => {
      const run = runs[r.schedule];
      return run instanceof Error ? { error: { message: run.message, code: run.code ?? 'bad_value' } } : { value: run };
    });
  };
  const panel = { showPicked: (id) => picked.push(id), showModel: (m) => shown.push(m) };
  const memory = new MemoryBytes(modelRuns, (name) => name === 'virtual', panel, (name) => `title of ${name}`);
  return { memory, asked, shown, picked };
}

test('core\'s plan examples are offered by file name, with their JSON text', () => {
  assert.deepEqual(PLAN_EXAMPLES.map((e) => e.id), ['deepseek-v3', 'small-dense', 'moe-one-node-ep']);
  for (const e of PLAN_EXAMPLES) assert.equal(typeof JSON.parse(e.text).model.pp, 'number');
});

test('without a model nothing is run and the panel shows chunks', async () => {
  const s = standIns();
  await s.memory.update({ ...DEFAULT_STATE, memoryModel: '' });
  assert.deepEqual(s.picked, ['']);
  assert.deepEqual(s.asked, []);
  assert.deepEqual(s.shown, []);
});

test('a model the picker does not offer is handed to the panel to say, and nothing is run', async () => {
  const s = standIns();
  await s.memory.update({ ...DEFAULT_STATE, memoryModel: 'gpt-5' });
  assert.deepEqual(s.picked, ['gpt-5']);
  assert.deepEqual(s.asked, []);
  assert.deepEqual(s.shown, []);
});

test('the schedule on screen and every compared one run on the model at the page\'s sizes; the verdicts are core\'s', async () => {
  const s = standIns({ runs: { a: runOf('a', [50e9, 72e9]), b: runOf('b', [90e9, 361e9]), virtual: runOf('virtual', [10e9]), c: new Error('chimera needs micro-batches to be a multiple of the stage count = 16') } });
  const state = { ...DEFAULT_STATE, schedule: 'a', compare: ['b', 'virtual', 'c'], ranks: '4', microBatches: '12', virtualStages: '3', memoryModel: 'deepseek-v3' };
  await s.memory.update(state);
  const text = PLAN_EXAMPLES[0].text;
  // The controls give ranks and micro-batches (as typed); virtual stages only for a schedule that has them.
  const sizes = { ranks: '4', microBatches: '12' };
  assert.deepEqual(s.asked, [
    { schedule: 'a', model: text, ...sizes },
    { schedule: 'b', model: text, ...sizes },
    { schedule: 'virtual', model: text, ...sizes, virtualStages: '3' },
    { schedule: 'c', model: text, ...sizes },
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
  await s.memory.update({ ...DEFAULT_STATE, schedule: 'a', compare: [], memoryModel: 'small-dense' });
  assert.deepEqual(s.shown[0].run, { error: 'no layout fits' });
});

test('a request superseded by a newer one draws nothing', async () => {
  const s = standIns({ answer: () => SUPERSEDED });
  await s.memory.update({ ...DEFAULT_STATE, schedule: 'a', compare: [], memoryModel: 'small-dense' });
  assert.equal(s.asked.length, 1);
  assert.deepEqual(s.shown, []);
});

test('only the newest of two requests is drawn, even when the older one answers last', async () => {
  let releaseFirst;
  const first = new Promise((r) => (releaseFirst = r));
  let calls = 0;
  const s = standIns({ answer: (requests) => (++calls === 1 ? first.then(() => requests.map((r) => ({ value: runOf(r.schedule, [1e9]) }))) : requests.map((r) => ({ value: runOf(r.schedule, [2e9]) }))) });
  const older = s.memory.update({ ...DEFAULT_STATE, schedule: 'a', compare: [], memoryModel: 'small-dense' });
  await s.memory.update({ ...DEFAULT_STATE, schedule: 'b', compare: [], memoryModel: 'small-dense' });
  releaseFirst();
  await older;
  assert.deepEqual(s.shown.map((m) => m.run.schedule), ['b']);
});

test('a task that failed whole (the course module did not load) is said once on the tab', async () => {
  const s = standIns({ answer: (requests) => requests.map(() => ({ error: { message: 'network down', code: 'internal' } })) });
  await s.memory.update({ ...DEFAULT_STATE, compare: ['1f1b', 'gpipe'], memoryModel: 'small-dense' });
  assert.deepEqual(s.shown.map((m) => [m.run, m.verdicts]), [[{ error: 'network down' }, []]]);
});
