// The <pipesim-timeline> element's pipesim-change event says every setting the element reflects as a
// property (web/src/embed/element.ts ATTRIBUTES, the one list), timing and sends among them, as the
// element's own properties read them, and what it drew: a framework keeping its state in step with
// the element reads it all from the event.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

test('pipesim-change carries every reflected property, timing and sends included, and follows their changes', async () => {
  const { page, problems } = await browser.page('examples/element.html', { ready: null });
  await page.locator('#fig5 [data-testid=makespan]').waitFor();
  const seen = await page.evaluate(async () => {
    const element = document.createElement('pipesim-timeline');
    const attributes = { schedule: '1f1b', ranks: '4', 'micro-batches': '8', timing: 'reference', sends: 'eager', theme: 'dark', palette: 'cb', lang: 'pt-BR' };
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    const next = () => new Promise((resolve) => element.addEventListener('pipesim-change', (e) => resolve(e.detail), { once: true }));
    // The properties that reflect an attribute: an accessor with a setter on the element's class.
    const proto = Object.getPrototypeOf(element);
    const reflected = Object.entries(Object.getOwnPropertyDescriptors(proto)).filter(([, d]) => d.set).map(([name]) => name);
    const properties = () => Object.fromEntries(reflected.map((name) => [name, element[name]]));
    let change = next();
    document.querySelector('main').append(element);
    const first = { detail: await change, properties: properties() };
    change = next();
    element.timing = 'dataflow';
    element.sends = null;
    const second = { detail: await change, properties: properties() };
    return { reflected, first, second };
  });
  // Nothing reflected is left out of the event (lang and view are what was drawn; summary the numbers).
  for (const { detail, properties } of [seen.first, seen.second]) {
    assert.deepEqual(Object.keys(detail).sort(), [...seen.reflected, 'lang', 'summary'].sort());
    for (const name of seen.reflected) if (name !== 'view') assert.deepEqual(detail[name], properties[name], name);
    assert.equal(detail.view, 'timeline');
    assert.equal(detail.lang, 'pt-BR');
  }
  const first = seen.first.detail;
  assert.deepEqual(
    { timing: first.timing, sends: first.sends, theme: first.theme, palette: first.palette, ranks: first.ranks, microBatches: first.microBatches },
    { timing: 'reference', sends: 'eager', theme: 'dark', palette: 'cb', ranks: 4, microBatches: 8 },
  );
  assert.equal(first.summary.timing, 'reference', 'the summary is of the run the event describes');
  const second = seen.second.detail;
  assert.deepEqual({ timing: second.timing, sends: second.sends }, { timing: 'dataflow', sends: null });
  assert.equal(second.summary.timing, 'dataflow');
  assert.deepEqual(problems, []);
  await page.close();
});
