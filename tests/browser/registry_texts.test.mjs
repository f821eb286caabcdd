// The page words each schedule and preset as the engine's registry does (core: ScheduleSpec texts,
// core/engine/src/presets.cpp), in each of its languages, and colours each schedule as its entry says.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './harness.mjs';
import { loadEngine } from '../wasm/engine.mjs';

let browser;
let registry;
let presets;
before(async () => {
  browser = await openBrowser();
  const engine = await loadEngine();
  registry = engine.schedules();
  presets = engine.presets();
});
after(async () => browser?.close());

for (const lang of ['en', 'pt-BR', 'zh-CN']) {
  test(`${lang}: the chosen schedule's summary, rules and caption and the preset names are the registry's`, async () => {
    const { page, problems } = await browser.page(`?lang=${lang}&schedule=chimera&ranks=4&micro-batches=8`);
    const chimera = registry.find((s) => s.name === 'chimera').texts[lang];
    assert.equal(await page.textContent('.schedule-about > div:first-child'), chimera.summary);
    assert.ok((await page.textContent('.schedule-about .rules')).includes(chimera.constraints));
    const caption = await page.textContent('#panel-timeline p.caption');
    // The caption's {half} and {ranks} filled from the run: 4 micro-batches each way, units of 4.
    const filled = chimera.caption.replaceAll('{half}', '4').replaceAll('{ranks}', '4');
    assert.equal(caption, filled);
    const options = await page.$$eval('[data-testid=preset] option', (os) => os.map((o) => [o.value, o.textContent]));
    assert.deepEqual(options.slice(1), presets.map((p) => [p.id, p.texts[lang].name]));
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('a compared schedule is drawn in its registry colour, and a preset sets what its entry says', async () => {
  const { page, problems } = await browser.page('?compare=1f1b,zb-h1&view=compare');
  await page.waitForSelector('[data-testid=compare-zb-h1]'); // the Compare tab's code arrives when it is first shown
  const swatch = await page.$eval('[data-testid=compare-zb-h1] + .swatch', (s) => getComputedStyle(s).backgroundColor);
  const hex = registry.find((s) => s.name === 'zb-h1').colour.light;
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  assert.equal(swatch, `rgb(${r}, ${g}, ${b})`);
  await page.selectOption('[data-testid=preset]', 'zerobubble');
  const zb = presets.find((p) => p.id === 'zerobubble');
  await page.waitForFunction((name) => document.querySelector('#schedule').value === name, zb.schedule);
  assert.equal(await page.inputValue('[data-testid=preset]'), 'zerobubble');
  assert.deepEqual(problems, []);
  await page.close();
});
