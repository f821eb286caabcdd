// The one loader of the modules the page loads on first need (web/src/engine/load_once.ts, used by
// engine.ts for the course and the tools modules): one load for every caller, its failure seen by all
// who waited on it, and a fresh attempt on the next call after a failure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';

const { loadOnce } = await loadWebModule('engine/load_once');

/** A load whose attempts the test settles by hand, counting them. */
function controlledLoad() {
  const attempts = [];
  const load = () =>
    new Promise((resolve, reject) => {
      attempts.push({ resolve, reject });
    });
  return { attempts, load };
}

test('callers while it loads and after it has loaded share the one load', async () => {
  const { attempts, load } = controlledLoad();
  const ready = loadOnce(load);
  const first = ready();
  const second = ready();
  assert.equal(first, second, 'one promise for both');
  assert.equal(attempts.length, 1);
  attempts[0].resolve('module');
  assert.equal(await first, 'module');
  assert.equal(await ready(), 'module');
  assert.equal(attempts.length, 1, 'never loaded again once loaded');
});

test('a failure reaches every caller of that attempt, as asFailure makes it, and the next call loads again', async () => {
  const { attempts, load } = controlledLoad();
  const ready = loadOnce(load, (e) => new Error(`wrapped: ${e.message}`));
  const waiting = [ready(), ready()];
  attempts[0].reject(new Error('network'));
  for (const p of waiting) await assert.rejects(p, { message: 'wrapped: network' });
  const retry = ready();
  assert.equal(attempts.length, 2, 'a second attempt after the failure');
  assert.notEqual(retry, waiting[0]);
  attempts[1].resolve('module');
  assert.equal(await retry, 'module');
  assert.equal(await ready(), 'module');
  assert.equal(attempts.length, 2);
});

test('a load that throws instead of rejecting fails the same way, and is tried again', async () => {
  let calls = 0;
  const ready = loadOnce(() => {
    calls += 1;
    if (calls === 1) throw new Error('import failed');
    return Promise.resolve(calls);
  });
  await assert.rejects(ready(), { message: 'import failed' });
  assert.equal(await ready(), 2);
  assert.equal(await ready(), 2);
  assert.equal(calls, 2);
});

test('without asFailure the failure is passed on as it is', async () => {
  const reason = { code: 'io' };
  const ready = loadOnce(() => Promise.reject(reason));
  await assert.rejects(ready(), (e) => e === reason);
});
