// The page's store: one state, changed by set(), watched by subscribers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';

const { Store } = await loadWebModule('state/store');

test('set merges a patch into a new state object and leaves an earlier read as it was', () => {
  const store = new Store({ a: 1, b: 'x' });
  const before = store.get();
  store.set({ b: 'y' });
  assert.deepEqual(store.get(), { a: 1, b: 'y' });
  assert.deepEqual(before, { a: 1, b: 'x' });
  assert.notEqual(store.get(), before);
});

test('the store copies its initial state: changing the object given does not change it', () => {
  const initial = { a: 1 };
  const store = new Store(initial);
  initial.a = 2;
  assert.equal(store.get().a, 1);
});

test('every set notifies each subscriber in order, with the keys it set, even for an unchanged value', () => {
  const store = new Store({ a: 1, b: 2 });
  const seen = [];
  store.subscribe((state, keys) => seen.push(['first', state.a, [...keys]]));
  store.subscribe((state, keys) => seen.push(['second', state.a, [...keys]]));
  store.set({ a: 1 });
  store.set({ a: 5, b: 6 });
  assert.deepEqual(seen, [
    ['first', 1, ['a']],
    ['second', 1, ['a']],
    ['first', 5, ['a', 'b']],
    ['second', 5, ['a', 'b']],
  ]);
});

test('an unsubscribed listener hears nothing more', () => {
  const store = new Store({ a: 1 });
  let calls = 0;
  const stop = store.subscribe(() => calls++);
  store.set({ a: 2 });
  stop();
  store.set({ a: 3 });
  assert.equal(calls, 1);
});

test('a listener that unsubscribes during a notification does not stop the others hearing it', () => {
  const store = new Store({ a: 1 });
  const heard = [];
  const stop = store.subscribe(() => {
    heard.push('first');
    stop();
  });
  store.subscribe(() => heard.push('second'));
  store.set({ a: 2 });
  store.set({ a: 3 });
  assert.deepEqual(heard, ['first', 'second', 'second']);
});

test('a slice reads and merges one field of the store, and hears only changes of that field', () => {
  const store = new Store({ view: 'timeline', planner: { example: 'a', input: '{}' } });
  const planner = store.slice('planner');
  const heard = [];
  planner.subscribe((value) => heard.push(value.input));
  store.set({ view: 'planner' });
  planner.set({ input: '{"x":1}' });
  assert.deepEqual(store.get().planner, { example: 'a', input: '{"x":1}' });
  assert.equal(planner.get().example, 'a');
  assert.deepEqual(heard, ['{"x":1}']);
});
