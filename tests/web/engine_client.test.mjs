// The engine client: where runs are simulated (one decision), and the results it keeps.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';

const { EngineClient, BACKGROUND_ABOVE_OPS, CACHE_ENTRIES_LIMIT, CACHE_OPS_LIMIT, MODEL_CACHE_ENTRIES_LIMIT, estimatedOps, requestKey } = await loadWebModule('engine/client');
const { SUPERSEDED } = await loadWebModule('engine/superseded');

class Refusal extends Error {
  constructor(message, code) {
    super(message);
    this.code = code;
  }
}

/** An engine that counts its calls; `opsOf` says how many ops a run has. */
function fakeEngine(opsOf = () => 10) {
  const calls = [];
  return {
    calls,
    simulate(request) {
      calls.push(request);
      if (request.ranks === 'bad') throw new Refusal('ranks must be a whole number, not "bad"', 'bad_argument');
      if (request.ranks === 'bug') throw new TypeError('a bug, not a refusal');
      return { summary: { ranks: Number(request.ranks) }, ops: { count: opsOf(request) } };
    },
    exportText: (request, format) => `${format} of ${request.schedule}`,
    toolsReady: async () => {},
  };
}

/** A lane request that answers from a fake worker (`reply(task, args)`), or says it was superseded,
 *  or fails with `failure`. */
function fakeLane(answer, reply, failure = new Error('the worker broke')) {
  const tasks = [];
  return {
    tasks,
    async run(task, args) {
      tasks.push({ task, args });
      if (answer === 'superseded') return SUPERSEDED;
      if (answer === 'fail') throw failure;
      return reply(task, args);
    },
  };
}

/** The worker's simulations and exports. */
function fakeUpdate(answer = 'run') {
  return fakeLane(answer, (task, args) =>
    task === 'exportText' ? `worker ${args.format}` : args.map((r) => ({ value: { summary: { ranks: Number(r.ranks), away: true }, ops: { count: 5 } } })),
  );
}

const small = (schedule = 'dualpipe', ranks = 8) => ({ schedule, ranks, microBatches: 20, virtualStages: 1, cost: 'F=1,B=2' });
const large = (schedule = 'dualpipe') => ({ schedule, ranks: 64, microBatches: 1000, virtualStages: 1, cost: 'F=1,B=2' });

test('a run is estimated at three ops per micro-batch, stage and virtual stage; a custom one by its length', () => {
  assert.equal(estimatedOps({ schedule: 'dualpipe', ranks: 8, microBatches: 20, virtualStages: 2 }), 960);
  assert.equal(estimatedOps({ schedule: 'gpipe', ranks: 'x', microBatches: '0', virtualStages: undefined }), 3);
  assert.equal(estimatedOps({ schedule: 'custom', customSchedule: 'x'.repeat(400) }), 100);
});

test('the same request has the same key, whatever the order of its fields or a number written as text', () => {
  assert.equal(requestKey({ ranks: 8, schedule: 'a' }), requestKey({ schedule: 'a', ranks: '8' }));
  assert.equal(requestKey({ schedule: 'a', timing: undefined }), requestKey({ schedule: 'a' }));
  assert.notEqual(requestKey({ schedule: 'a', ranks: 8 }), requestKey({ schedule: 'a', ranks: 9 }));
});

test('runs up to the threshold are simulated at once on this thread, above it in the worker', () => {
  const client = new EngineClient(fakeEngine(), { lastPlace: null });
  const atLimit = { schedule: 's', ranks: 10, microBatches: BACKGROUND_ABOVE_OPS / 30, virtualStages: 1, cost: '' };
  assert.equal(client.placement([atLimit]).background, false);
  assert.equal(client.placement([atLimit, small()]).background, true); // the sum of the update counts
  const now = client.simulate([small()], fakeUpdate());
  assert.equal(now.where, 'main-thread');
  assert.equal(now.outcomes[0].value.summary.ranks, 8);
  const later = client.simulate([large()], fakeUpdate());
  assert.equal(later.ops, 192000);
  assert.ok(later.pending instanceof Promise);
});

test('a run asked again is served from the cache, and a cached run does not count towards the worker', async () => {
  const engine = fakeEngine();
  const client = new EngineClient(engine, { lastPlace: null });
  client.simulate([small()], fakeUpdate());
  const again = client.simulate([{ ...small(), ranks: '8' }], fakeUpdate());
  assert.equal(again.where, 'cache');
  assert.equal(engine.calls.length, 1);
  const update = fakeUpdate();
  const outcomes = await client.simulate([large()], update).pending;
  assert.equal(outcomes[0].value.summary.away, true);
  assert.equal(client.placement([large(), small()]).background, false); // both cached now
  const both = client.simulate([large(), small()], fakeUpdate());
  assert.equal(both.where, 'cache');
});

test('only the runs not cached go to the worker, and the answers come back in the order asked', async () => {
  const client = new EngineClient(fakeEngine(), { lastPlace: 'worker' });
  client.simulate([small('zb-h1')], fakeUpdate());
  const update = fakeUpdate();
  const outcomes = await client.simulate([large('a'), small('zb-h1'), large('b')], update).pending;
  assert.deepEqual(update.tasks[0].args.map((r) => r.schedule), ['a', 'b']);
  assert.deepEqual(outcomes.map((o) => o.value.summary.away === true), [true, false, true]);
  assert.equal(client.lastPlace, 'worker');
});

test('a refusal is an outcome (so one refused schedule does not fail a comparison) and is kept too', () => {
  const engine = fakeEngine();
  const client = new EngineClient(engine, { lastPlace: null });
  const { outcomes } = client.simulate([small(), { ...small(), ranks: 'bad' }], fakeUpdate());
  assert.equal(outcomes[0].value.summary.ranks, 8);
  assert.deepEqual(outcomes[1], { error: { message: 'ranks must be a whole number, not "bad"', code: 'bad_argument' } });
  client.simulate([{ ...small(), ranks: 'bad' }], fakeUpdate());
  assert.equal(engine.calls.length, 2);
});

test('an error that is not the engine\'s refusal is thrown, not turned into a message', () => {
  const client = new EngineClient(fakeEngine(), { lastPlace: null });
  assert.throws(() => client.simulate([{ ...small(), ranks: 'bug' }], fakeUpdate()), TypeError);
});

test('a superseded update answers SUPERSEDED and keeps nothing', async () => {
  const client = new EngineClient(fakeEngine(), { lastPlace: null });
  assert.equal(await client.simulate([large()], fakeUpdate('superseded')).pending, SUPERSEDED);
  assert.equal(client.cached(large()), undefined);
});

test('a worker that breaks refuses every run of its task as internal, and none is kept', async () => {
  const client = new EngineClient(fakeEngine(), { lastPlace: null });
  const outcomes = await client.simulate([large('a'), large('b')], fakeUpdate('fail')).pending;
  assert.deepEqual(outcomes, [
    { error: { message: 'the worker broke', code: 'internal' } },
    { error: { message: 'the worker broke', code: 'internal' } },
  ]);
  assert.equal(client.cached(large('a')), undefined);
});

test('the cache drops its oldest results past its entry limit', () => {
  const client = new EngineClient(fakeEngine(), { lastPlace: null });
  for (let r = 1; r <= CACHE_ENTRIES_LIMIT + 1; r++) client.simulate([small('s', r)], fakeUpdate());
  assert.equal(client.cached(small('s', 1)), undefined);
  assert.ok(client.cached(small('s', 2)));
  assert.ok(client.cached(small('s', CACHE_ENTRIES_LIMIT + 1)));
});

test('the cache drops its least recently used results past its op limit, and never keeps a run above it', () => {
  const client = new EngineClient(fakeEngine((r) => r.ranks * 100_000), { lastPlace: null });
  const half = CACHE_OPS_LIMIT / 200_000; // ranks whose run has half the limit's ops
  client.simulate([small('a', half)], fakeUpdate());
  client.simulate([small('b', half)], fakeUpdate());
  assert.ok(client.cached(small('a', half))); // a is now the one used last
  client.simulate([small('c', 1)], fakeUpdate());
  assert.equal(client.cached(small('b', half)), undefined); // the least recently used made room
  assert.ok(client.cached(small('a', half)));
  client.simulate([small('d', half * 2 + 1)], fakeUpdate());
  assert.equal(client.cached(small('d', half * 2 + 1)), undefined);
  assert.ok(client.cached(small('a', half)));
});

test('a cached run asked beside a new one is answered even if the new one evicts it while away', async () => {
  const client = new EngineClient(fakeEngine(() => CACHE_OPS_LIMIT / 2), { lastPlace: 'worker' });
  client.simulate([small('primary')], fakeUpdate());
  const heavy = {
    async run(task, args) {
      return args.map((r) => ({ value: { summary: { ranks: Number(r.ranks), away: true }, ops: { count: CACHE_OPS_LIMIT - 1 } } }));
    },
  };
  const outcomes = await client.simulate([small('primary'), large('new')], heavy).pending;
  assert.equal(client.cached(small('primary')), undefined); // the new run took its place in the cache
  assert.deepEqual(outcomes.map((o) => o.value.summary.away === true), [false, true]);
});

test('an export of a small run is written here, of a large one in the worker (and the caller is told)', async () => {
  const client = new EngineClient(fakeEngine(), { lastPlace: null });
  let told = 0;
  assert.equal(await client.exportText(small(), 'csv', fakeUpdate(), () => told++), 'csv of dualpipe');
  assert.equal(told, 0);
  assert.equal(await client.exportText(large(), 'csv', fakeUpdate(), () => told++), 'worker csv');
  assert.equal(told, 1);
});

/** A lane request whose worker runs models: each request's run names its schedule and ranks. */
function fakeModelUpdate(answer = 'run') {
  return fakeLane(
    answer,
    (task, args) => args.map((r) => (r.schedule === 'chimera' ? { error: { message: 'chimera refused', code: 'schedule_rule' } } : { value: { schedule: r.schedule, ranks: Number(r.ranks) } })),
    new Refusal('the course module did not load', 'internal'),
  );
}

const onModel = (schedule, ranks = '8') => ({ schedule, model: '{"model": {}}', ranks, microBatches: '20' });

test('runs on a model go to the worker as one simulateModel task, never to this thread, answered in the order asked', async () => {
  const engine = fakeEngine();
  const client = new EngineClient(engine, {});
  const update = fakeModelUpdate();
  const got = await client.simulateModels([onModel('dualpipe'), onModel('chimera'), onModel('1f1b', '4')], update);
  assert.deepEqual(update.tasks.map((t) => t.task), ['simulateModel']);
  assert.deepEqual(got, [
    { value: { schedule: 'dualpipe', ranks: 8 } },
    { error: { message: 'chimera refused', code: 'schedule_rule' } },
    { value: { schedule: '1f1b', ranks: 4 } },
  ]);
  assert.equal(engine.calls.length, 0);
});

test('a model run asked again comes from the cache (refusals too); only the new ones go to the worker', async () => {
  const client = new EngineClient(fakeEngine(), {});
  await client.simulateModels([onModel('dualpipe'), onModel('chimera')], fakeModelUpdate());
  const update = fakeModelUpdate();
  const got = await client.simulateModels([onModel('chimera'), onModel('dualpipe', '16'), onModel('dualpipe')], update);
  assert.deepEqual(update.tasks.map((t) => t.args), [[onModel('dualpipe', '16')]]);
  assert.deepEqual(got.map((o) => o.value?.ranks ?? o.error.message), ['chimera refused', 16, 8]);
  const again = fakeModelUpdate();
  await client.simulateModels([onModel('dualpipe')], again);
  assert.deepEqual(again.tasks, []);
});

test('a superseded model request answers SUPERSEDED and keeps nothing; a task failed whole refuses every run and keeps none', async () => {
  const client = new EngineClient(fakeEngine(), {});
  assert.equal(await client.simulateModels([onModel('dualpipe')], fakeModelUpdate('superseded')), SUPERSEDED);
  const failed = await client.simulateModels([onModel('dualpipe'), onModel('1f1b')], fakeModelUpdate('fail'));
  assert.deepEqual(failed, [1, 2].map(() => ({ error: { message: 'the course module did not load', code: 'internal' } })));
  const retry = fakeModelUpdate();
  await client.simulateModels([onModel('dualpipe')], retry);
  assert.equal(retry.tasks.length, 1);
});

test('the model cache drops its oldest runs past its entry limit', async () => {
  const client = new EngineClient(fakeEngine(), {});
  for (let r = 1; r <= MODEL_CACHE_ENTRIES_LIMIT + 1; r++) await client.simulateModels([onModel('dualpipe', String(r))], fakeModelUpdate());
  const oldest = fakeModelUpdate();
  await client.simulateModels([onModel('dualpipe', '1')], oldest);
  assert.equal(oldest.tasks.length, 1);
  const newest = fakeModelUpdate();
  await client.simulateModels([onModel('dualpipe', String(MODEL_CACHE_ENTRIES_LIMIT + 1))], newest);
  assert.equal(newest.tasks.length, 0);
});
