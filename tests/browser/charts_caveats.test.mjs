// A chart says why a curve has holes only for the schedules it plots, in the registry's words: each
// plotted schedule that refuses some of the swept sizes gets one line naming it and its constraints
// (core's ScheduleTexts, in the page's language); a chart whose curves have no holes says none.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './harness.mjs';
import { loadEngine } from '../wasm/engine.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const registry = new Map((await loadEngine()).schedules().map((s) => [s.name, s]));
const ready = (page) => page.waitForSelector('#panel-charts[data-swept-in] [data-testid=chart-absolute]');

/** Each chart's title with the caveats under it. */
const caveatsByChart = (page) =>
  page.locator('#panel-charts .chart-card').evaluateAll((cards) =>
    Object.fromEntries(cards.map((c) => [c.querySelector('h4').textContent, [...c.querySelectorAll('[data-testid=chart-caveat]')].map((e) => e.textContent)])));

const english = (name) => `${registry.get(name).texts.en.title} has no point at the sizes it refuses: ${registry.get(name).texts.en.constraints}.`;

test('schedules that accept every swept size get no caveat, and no schedule that is not plotted is named', async () => {
  const { page, problems } = await browser.page('?view=charts&schedule=1f1b&ranks=4&micro-batches=8&compare=gpipe');
  await ready(page);
  const caveats = await caveatsByChart(page);
  assert.deepEqual(Object.values(caveats).flat(), []);
  // The curves' hints name no schedule (the trade-off chart plots every schedule, so it may).
  const hints = await page.locator('#panel-charts .chart-card:has(.chart-data) > .hint').allTextContents();
  assert.ok(hints.length >= 4, `the line charts' hints are found (${hints.length})`);
  assert.deepEqual(hints.filter((h) => /DualPipe/.test(h)), []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('DualPipe plotted beside 1F1B: its caveat under each chart where its curve has holes, 1F1B none', async () => {
  const { page, problems } = await browser.page('?view=charts&schedule=dualpipe&ranks=8&micro-batches=20&compare=1f1b');
  await ready(page);
  const caveats = await caveatsByChart(page);
  // Against micro-batches (odd counts and fewer than 2 x 8) and against ranks (odd counts and more than 20 / 2).
  for (const title of ['Bubble fraction vs micro-batches (8 ranks)', 'Bubble fraction vs ranks (20 micro-batches)',
    'Largest rank bubble vs micro-batches (8 ranks)', 'Largest rank bubble vs ranks (20 micro-batches)'])
    assert.deepEqual(caveats[title], [english('dualpipe')], title);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the rule is the registry\'s, for any schedule: interleaved 1F1B\'s holes against micro-batches, in zh-CN', async () => {
  const { page, problems } = await browser.page('?view=charts&schedule=interleaved-1f1b&ranks=4&micro-batches=8&virtual-stages=2&lang=zh-CN');
  await ready(page);
  const texts = registry.get('interleaved-1f1b').texts['zh-CN'];
  const caveats = await caveatsByChart(page);
  const zh = `${texts.title} 在它拒绝的规模上没有点：${texts.constraints}。`;
  const withCaveat = Object.entries(caveats).filter(([, c]) => c.length > 0);
  assert.ok(withCaveat.length > 0, 'some chart has the caveat');
  for (const [title, c] of withCaveat) assert.deepEqual(c, [zh], title);
  assert.deepEqual(problems, []);
  await page.close();
});
