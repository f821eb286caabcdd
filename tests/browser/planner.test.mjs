// The planner on the page (issue 14): the search runs in the worker with a progress bar, lists one
// row without pipeline parallelism, and each row opens the Timeline on its configuration with one
// link; bad input is one line naming the field.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

async function searchDone(page) {
  await page.waitForSelector('[data-testid=planner-search-table]', { timeout: 60_000 });
}

test('the search shows its progress, then its ranked rows, one of them without pipeline parallelism', async () => {
  const { page, problems } = await browser.page('?view=planner');
  await page.selectOption('[data-testid=planner-example]', 'small-dense');
  await searchDone(page);
  const bar = page.locator('[data-testid=planner-search-progress]');
  assert.equal(await bar.getAttribute('role'), 'progressbar');
  assert.equal(await bar.getAttribute('aria-valuemin'), '0');
  assert.equal(await bar.getAttribute('aria-valuemax'), '100');
  assert.equal(await bar.getAttribute('aria-valuenow'), '100');
  assert.match(await page.textContent('[data-testid=planner-search-count]'), /^\d+ configurations run, \d+ refused$/);
  const rows = page.locator('[data-testid=planner-search-row]');
  assert.equal(await rows.count(), 20);
  assert.equal(await page.locator('[data-testid=planner-search-row][data-pp="1"]').count(), 1);
  assert.match(await page.textContent('[data-testid=planner-search-row][data-pp="1"]'), /No pipeline parallelism/);
  // The plan above the search ranks by the same iteration: DualPipe's 11.62 s makespan and the 46.7 ms
  // all-reduce of its two parameter copies (pipesim plan, small-dense.json).
  assert.equal(await page.textContent('[data-testid=planner-table] tr[data-schedule=dualpipe] td:nth-child(3)'), '11.66 s');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a search row opens the Timeline on its schedule, sizes and per-stage costs with one link', async () => {
  const { page, problems } = await browser.page('?view=planner');
  await page.selectOption('[data-testid=planner-example]', 'small-dense');
  await searchDone(page);
  const row = page.locator('[data-testid=planner-search-row][data-pp="2"]').first();
  const schedule = await row.getAttribute('data-schedule');
  const makespan = Number(await row.getAttribute('data-makespan'));
  const compare = await row.locator('[data-testid=planner-open-compare]').getAttribute('href');
  assert.match(compare, /view=compare/);
  await Promise.all([page.waitForNavigation(), row.locator('[data-testid=planner-open-timeline]').click()]);
  await page.waitForSelector('#app[data-state=ready]');
  const url = new URL(page.url());
  assert.equal(url.searchParams.get('schedule'), schedule);
  assert.equal(url.searchParams.get('ranks'), '2');
  assert.equal(url.searchParams.get('micro-batches'), '16');
  assert.equal(url.searchParams.get('stage-cost').split(';').length >= 2, true);
  // The Timeline simulates the same configuration as the search did: the same makespan.
  await page.waitForSelector('[data-testid=makespan]');
  assert.equal(Number(await page.textContent('[data-testid=makespan]')), Number(makespan.toFixed(3)));
  assert.deepEqual(problems, []);
  await page.close();
});

test('a bad planner input is one line naming the field, and no search is drawn', async () => {
  const { page } = await browser.page('?view=planner');
  await page.selectOption('[data-testid=planner-example]', 'small-dense');
  await searchDone(page);
  const input = JSON.parse(await page.inputValue('[data-testid=planner-input]'));
  input.model.layers = 0;
  await page.fill('[data-testid=planner-input]', JSON.stringify(input));
  await page.waitForSelector('[data-testid=planner-error]');
  assert.match(await page.textContent('[data-testid=planner-error]'), /model\.layers must be a whole number from 1 to 100000, got 0/);
  assert.equal(await page.locator('[data-testid=planner-search-table]').count(), 0);
  await page.close();
});

test('the form and the JSON show the same input: a form edit rewrites that field, a JSON edit refills the form', async () => {
  const { page } = await browser.page('?view=planner');
  await page.selectOption('[data-testid=planner-example]', 'small-dense');
  await searchDone(page);
  assert.equal(await page.inputValue('[data-testid=planner-cluster-gpu-memory_gb]'), '80');
  await page.fill('[data-testid=planner-cluster-gpu-memory_gb]', '40');
  assert.equal(JSON.parse(await page.inputValue('[data-testid=planner-input]')).cluster.gpu.memory_gb, 40);
  const input = JSON.parse(await page.inputValue('[data-testid=planner-input]'));
  input.model.layers = 16;
  await page.fill('[data-testid=planner-input]', JSON.stringify(input));
  assert.equal(await page.inputValue('[data-testid=planner-model-layers]'), '16');
  // A bad value typed in the form is refused naming the JSON field.
  await page.fill('[data-testid=planner-model-layers]', '0');
  await page.waitForSelector('[data-testid=planner-error]');
  assert.match(await page.textContent('[data-testid=planner-error]'), /model\.layers must be a whole number from 1 to 100000, got 0/);
  await page.close();
});
