// The storage adapter: preferences kept between visits, and a storage that throws never breaks the page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';

const { StorageAdapter } = await loadWebModule('state/storage_adapter');
const { Store } = await loadWebModule('state/store');

function memory(entries = {}) {
  const map = new Map(Object.entries(entries));
  return { map, getItem: (k) => (map.has(k) ? map.get(k) : null), setItem: (k, v) => map.set(k, String(v)) };
}

const throwing = { getItem: () => { throw new Error('SecurityError'); }, setItem: () => { throw new Error('QuotaExceededError'); } };

test('connect reads the stored fields into the store and leaves the others at their defaults', () => {
  const storage = memory({ 'pipesim:theme': 'dark' });
  const store = new Store({ theme: 'light', palette: 'default' });
  new StorageAdapter(() => storage).connect(store, { theme: 'pipesim:theme', palette: 'pipesim:palette' });
  assert.deepEqual(store.get(), { theme: 'dark', palette: 'default' });
  assert.equal(storage.map.has('pipesim:palette'), false); // reading writes nothing back
});

test('a field set later is saved under its key; fields not bound are not', () => {
  const storage = memory();
  const store = new Store({ theme: 'light', view: 'timeline' });
  new StorageAdapter(() => storage).connect(store, { theme: 'pipesim:theme' });
  store.set({ theme: 'dark', view: 'charts' });
  assert.deepEqual([...storage.map], [['pipesim:theme', 'dark']]);
});

test('a stored value the page does not accept is ignored', () => {
  const store = new Store({ theme: 'light' });
  new StorageAdapter(() => memory({ 'pipesim:theme': 'purple' })).connect(store, { theme: 'pipesim:theme' }, (_f, v) => v === 'light' || v === 'dark');
  assert.equal(store.get().theme, 'light');
});

test('a storage that throws, or none at all, reads as empty and ignores writes', () => {
  for (const storage of [throwing, null]) {
    const adapter = new StorageAdapter(() => storage);
    assert.equal(adapter.load('k'), null);
    assert.doesNotThrow(() => adapter.save('k', 'v'));
    const store = new Store({ theme: 'light' });
    adapter.connect(store, { theme: 'k' });
    assert.doesNotThrow(() => store.set({ theme: 'dark' }));
    assert.equal(store.get().theme, 'dark'); // the setting lasts for this visit
  }
});

test('the default adapter in Node, which has no localStorage, loads nothing', async () => {
  const { storage } = await loadWebModule('state/storage_adapter');
  assert.equal(storage.load('pipesim:theme'), null);
});
