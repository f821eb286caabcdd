// The URL adapter: the page's state read from its address and written back, throttled, keeping the
// parameters it does not own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';

const { UrlAdapter, readState, writeState, OWN_PARAMS } = await loadWebModule('state/url_adapter');
const { DEFAULT_STATE, CUSTOM_IN_URL_LIMIT } = await loadWebModule('state/page_state');
const { Store } = await loadWebModule('state/store');
const { URL_WRITE_INTERVAL_MS } = await loadWebModule('state/url_writer');

/** An address bar with a hand-driven clock and timers. */
function fakeAddress(search = '') {
  const bar = {
    current: search,
    writes: [],
    clock: 0,
    timers: [],
    leave: [],
    search: () => bar.current,
    replace: (url) => {
      bar.current = url;
      bar.writes.push(url);
    },
    now: () => bar.clock,
    onLeave: (flush) => bar.leave.push(flush),
    setTimer: (run, ms) => {
      const timer = { run, at: bar.clock + ms };
      bar.timers.push(timer);
      return timer;
    },
    clearTimer: (timer) => (bar.timers = bar.timers.filter((t) => t !== timer)),
    advance(ms) {
      bar.clock += ms;
      for (const timer of bar.timers.filter((t) => t.at <= bar.clock)) {
        bar.timers = bar.timers.filter((t) => t !== timer);
        timer.run();
      }
    },
  };
  return bar;
}

test('an empty address reads as the default state', () => {
  assert.deepEqual(readState(''), DEFAULT_STATE);
});

test('every parameter of a link is read into its field', () => {
  const s = readState('?schedule=zb-h1&ranks=4&micro-batches=8&virtual-stages=3&cost=F=2,B=3&compare=1f1b,gpipe&basis=stage&stage-cost=last:F=2&rank-speed=3:0.5&view=charts&timing=reference&sends=eager&step=4');
  assert.deepEqual(s, {
    ...DEFAULT_STATE,
    schedule: 'zb-h1',
    ranks: '4',
    microBatches: '8',
    virtualStages: '3',
    cost: 'F=2,B=3',
    compare: ['1f1b', 'gpipe'],
    basis: 'stage',
    stageCost: 'last:F=2',
    rankSpeed: '3:0.5',
    view: 'charts',
    timing: 'reference',
    sends: 'eager',
    step: '4',
  });
});

test('an unknown view or basis falls back to the default; sizes stay as typed for the engine to judge', () => {
  const s = readState('?view=nowhere&basis=galaxy&ranks=-3x');
  assert.equal(s.view, DEFAULT_STATE.view);
  assert.equal(s.basis, DEFAULT_STATE.basis);
  assert.equal(s.ranks, '-3x');
});

test('the compared schedules lose duplicates, empty names and the chosen schedule itself', () => {
  assert.deepEqual(readState('?schedule=1f1b&compare=zb-h1,,1f1b,zb-h1,gpipe').compare, ['zb-h1', 'gpipe']);
  assert.deepEqual(readState('?compare=').compare, []);
});

test('a written state reads back as itself, and defaults are left out of the link', () => {
  const state = { ...DEFAULT_STATE, schedule: 'interleaved', virtualStages: '3', basis: 'stage', view: 'memory', rankSpeed: '1:0.5' };
  const url = writeState(state, true, new URLSearchParams());
  assert.deepEqual(readState(url), state);
  const plain = writeState(DEFAULT_STATE, false, new URLSearchParams());
  assert.equal(plain, '?schedule=dualpipe&ranks=8&micro-batches=20&cost=F=1,B=2,W=1,FB=3&compare=1f1b,zb-h1');
});

test('virtual-stages is in the link only for a schedule that has them; step only in the lesson', () => {
  assert.match(writeState(DEFAULT_STATE, true, new URLSearchParams()), /virtual-stages=2/);
  assert.doesNotMatch(writeState({ ...DEFAULT_STATE, step: '3' }, false, new URLSearchParams()), /step=/);
  assert.match(writeState({ ...DEFAULT_STATE, view: 'learn', step: '3' }, false, new URLSearchParams()), /view=learn&step=3/);
});

test('sends is written only with reference timing', () => {
  assert.doesNotMatch(writeState({ ...DEFAULT_STATE, sends: 'eager' }, false, new URLSearchParams()), /sends=/);
  assert.match(writeState({ ...DEFAULT_STATE, timing: 'reference', sends: 'eager' }, false, new URLSearchParams()), /timing=reference&sends=eager/);
});

test('a pasted schedule rides in the link up to the limit, not beyond it', () => {
  const fits = 'x'.repeat(CUSTOM_IN_URL_LIMIT);
  assert.equal(readState(writeState({ ...DEFAULT_STATE, schedule: 'custom', custom: fits }, false, new URLSearchParams(), true)).custom, fits);
  const long = fits + 'x';
  assert.equal(readState(writeState({ ...DEFAULT_STATE, schedule: 'custom', custom: long }, false, new URLSearchParams(), true)).custom, '');
  // Text left over from a pasted schedule stays out of the link of a schedule that is not given as text.
  assert.doesNotMatch(writeState({ ...DEFAULT_STATE, custom: fits }, false, new URLSearchParams(), false), /custom=/);
});

test('the adapter keeps parameters it does not own, and replaces those it does', () => {
  const address = fakeAddress('?lang=pt-BR&embed=1&ranks=99&step=7');
  const adapter = new UrlAdapter(address);
  adapter.write({ ...DEFAULT_STATE, ranks: '4' });
  const q = new URLSearchParams(address.current);
  assert.equal(q.get('lang'), 'pt-BR');
  assert.equal(q.get('embed'), '1');
  assert.equal(q.get('ranks'), '4');
  assert.equal(q.get('step'), null);
  assert.ok(OWN_PARAMS.includes('step'));
});

test('a connected store writes its first change at once and folds a burst into one trailing write', () => {
  const address = fakeAddress();
  const store = new Store({ ...DEFAULT_STATE, planner: { input: '' } });
  new UrlAdapter(address).connect(store);
  store.set({ ranks: '4' });
  assert.equal(address.writes.length, 1);
  store.set({ ranks: '5' });
  store.set({ ranks: '6' });
  assert.equal(address.writes.length, 1);
  address.advance(URL_WRITE_INTERVAL_MS);
  assert.equal(address.writes.length, 2);
  assert.equal(readState(address.current).ranks, '6');
});

test('a change of a panel\'s own inputs leaves the address alone', () => {
  const address = fakeAddress();
  const store = new Store({ ...DEFAULT_STATE, planner: { input: '' } });
  new UrlAdapter(address).connect(store);
  store.set({ planner: { input: '{}' } });
  assert.equal(address.writes.length, 0);
});

test('leaving the page writes the change still waiting', () => {
  const address = fakeAddress();
  const adapter = new UrlAdapter(address);
  adapter.write({ ...DEFAULT_STATE, ranks: '4' });
  adapter.write({ ...DEFAULT_STATE, ranks: '5' });
  assert.equal(readState(address.current).ranks, '4');
  for (const leave of address.leave) leave();
  assert.equal(readState(address.current).ranks, '5');
  assert.equal(address.timers.length, 0);
});

test('the Memory tab\'s model rides in the address as memory-model, and only when one is picked', () => {
  const picked = { ...DEFAULT_STATE, view: 'memory', memoryModel: 'deepseek-v3' };
  const search = writeState(picked, false, new URLSearchParams());
  assert.match(search, /[?&]memory-model=deepseek-v3(&|$)/);
  assert.equal(readState(search).memoryModel, 'deepseek-v3');
  assert.doesNotMatch(writeState(DEFAULT_STATE, false, new URLSearchParams()), /memory-model/);
  assert.equal(readState('').memoryModel, '');
  assert.ok(OWN_PARAMS.includes('memory-model'));
});

test('Compare\'s both timings ride in the address as compare-timings=both, and only when on', () => {
  const both = { ...DEFAULT_STATE, view: 'compare', bothTimings: true };
  const search = writeState(both, false, new URLSearchParams());
  assert.match(search, /[?&]view=compare&compare-timings=both(&|$)/);
  assert.deepEqual(readState(search), both);
  assert.doesNotMatch(writeState(DEFAULT_STATE, false, new URLSearchParams()), /compare-timings/);
  assert.equal(readState('').bothTimings, false);
  assert.ok(OWN_PARAMS.includes('compare-timings'));
});

test('any compare-timings value but "both" is ignored, as an unknown view is', () => {
  for (const value of ['', 'Both', 'both ', 'true', '1', 'dataflow', 'reference', '<script>window.__pwned=1</script>', 'both'.repeat(1 << 16)])
    assert.equal(readState(`?view=compare&compare-timings=${encodeURIComponent(value)}`).bothTimings, false, value.slice(0, 40));
  // Repeated: the first value counts, as for every parameter the page reads.
  assert.equal(readState('?compare-timings=both&compare-timings=x').bothTimings, true);
  assert.equal(readState('?compare-timings=x&compare-timings=both').bothTimings, false);
});

test('a store switching both timings on writes it into the address, keeping the parameters others own', () => {
  const address = fakeAddress('?lang=pt-BR&view=compare');
  const store = new Store(readState(address.search()));
  new UrlAdapter(address).connect(store);
  store.set({ bothTimings: true });
  assert.match(address.current, /compare-timings=both/);
  assert.match(address.current, /lang=pt-BR/);
  address.advance(URL_WRITE_INTERVAL_MS);
  store.set({ bothTimings: false });
  address.advance(URL_WRITE_INTERVAL_MS);
  assert.doesNotMatch(address.current, /compare-timings/);
});
