// <pipesim-timeline> inside real Preact, Vue and React pages (tests/browser/frameworks/, bundled here by
// Vite with the frameworks' npm packages; the element is the built web/dist/embed module). Each
// framework passes props its own way: as properties when the element has them, which is what broke
// an element whose `schedule` was an internal method.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { DIST, openBrowser } from './harness.mjs';

const FIXTURES = fileURLToPath(new URL('./frameworks/', import.meta.url));
const FRAMEWORKS = ['preact', 'vue', 'react'];
let site;
let browser;

before(async () => {
  site = mkdtempSync(join(tmpdir(), 'pipesim-frameworks-'));
  symlinkSync(join(DIST, 'embed'), join(site, 'embed'));
  symlinkSync(join(DIST, 'favicon.svg'), join(site, 'favicon.svg'));
  for (const name of [...FRAMEWORKS, 'upgrade', 'lang'])
    writeFileSync(join(site, `${name}.html`), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title><link rel="icon" href="./favicon.svg" type="image/svg+xml"></head><body><div id="root"></div><script type="module" src="./fw/${name}.js"></script></body></html>\n`);
  await build({
    configFile: false,
    root: FIXTURES,
    logLevel: 'warn',
    define: { 'process.env.NODE_ENV': '"production"', __VUE_OPTIONS_API__: 'false', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false' },
    build: {
      outDir: join(site, 'fw'),
      emptyOutDir: true,
      target: 'es2022',
      minify: false,
      rollupOptions: {
        input: Object.fromEntries([...FRAMEWORKS, 'upgrade', 'lang'].map((name) => [name, join(FIXTURES, `${name}.js`)])),
        external: ['/embed/pipesim-timeline.js'],
        output: { format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js' },
      },
    },
  });
  browser = await openBrowser(site);
});
after(async () => {
  await browser?.close();
  if (site) rmSync(site, { recursive: true, force: true });
});

const shown = (page, id) => page.locator(`#${id} [data-testid=makespan]`);
const makespanIs = (page, id, value) =>
  page.waitForFunction(([i, v]) => document.getElementById(i)?.shadowRoot?.querySelector('[data-testid=makespan]')?.textContent === v, [id, value]);

for (const framework of FRAMEWORKS) {
  test(`in ${framework}: props set the element's properties, which reflect its attributes and redraw it`, async () => {
    const { page, problems } = await browser.page(`${framework}.html`, { ready: null });
    await makespanIs(page, 'a', '66');
    await makespanIs(page, 'b', '33');
    // The framework set properties, not an internal method: they read back and reflect.
    assert.deepEqual(await page.evaluate(() => { const a = document.getElementById('a'); return [a.schedule, a.getAttribute('schedule'), a.microBatches, a.getAttribute('micro-batches')]; }), ['dualpipe', 'dualpipe', 20, '20']);
    await page.evaluate(() => window.setState({ schedule: 'zb-v', ranks: 4, microBatches: 8 }));
    await makespanIs(page, 'a', '51');
    assert.deepEqual(await page.evaluate(() => { const a = document.getElementById('a'); return [a.schedule, a.getAttribute('schedule'), a.getAttribute('ranks'), a.summary.makespan]; }), ['zb-v', 'zb-v', '4', 51]);
    // A later attribute change works as well.
    await page.evaluate(() => document.getElementById('a').setAttribute('ranks', '6'));
    await makespanIs(page, 'a', '54');
    const changes = await page.evaluate(() => window.events.filter((e) => e.type === 'change'));
    assert.deepEqual(changes.at(-1), { type: 'change', schedule: 'zb-v', makespan: 54 });
    assert.ok(changes.some((e) => e.schedule === 'dualpipe' && e.makespan === 66), 'the first drawing was reported');
    // The other element kept its own settings and its own language.
    assert.match(await page.locator('#b .card-title').textContent(), /个 rank/);
    assert.match(await page.locator('#a .card-title').textContent(), / ranks · /);
    assert.equal(await shown(page, 'b').textContent(), '33');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`in ${framework}: hidden hides the element, and a refusal arrives as pipesim-error with its code`, async () => {
    const { page, problems } = await browser.page(`${framework}.html`, { ready: null });
    await makespanIs(page, 'a', '66');
    await page.evaluate(() => window.setState({ hidden: true }));
    await page.waitForFunction(() => getComputedStyle(document.getElementById('a')).display === 'none');
    await page.evaluate(() => window.setState({ hidden: false, ranks: 4, microBatches: 8 }));
    await makespanIs(page, 'a', '26');
    assert.equal(await page.locator('#a').isVisible(), true);
    await page.evaluate(() => window.setState({ ranks: 3 }));
    await page.waitForFunction(() => window.events.some((e) => e.type === 'error'));
    const error = await page.evaluate(() => window.events.find((e) => e.type === 'error'));
    assert.equal(error.code, 'schedule_rule');
    assert.match(error.message, /even number of ranks/);
    assert.match(await page.locator('#a [data-testid=error]').textContent(), /even number of ranks/);
    assert.equal(await page.evaluate(() => document.getElementById('a').summary), null);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('the element shows no internal names: its own properties are the documented ones', async () => {
  const { page, problems } = await browser.page('preact.html', { ready: null });
  await makespanIs(page, 'a', '66');
  const own = await page.evaluate(() => {
    const proto = customElements.get('pipesim-timeline').prototype;
    const fresh = document.createElement('pipesim-timeline');
    return { proto: Object.getOwnPropertyNames(proto).sort(), instance: Object.getOwnPropertyNames(fresh) };
  });
  assert.deepEqual(own.proto, ['attributeChangedCallback', 'compare', 'connectedCallback', 'constructor', 'cost', 'disconnectedCallback', 'microBatches', 'palette', 'ranks', 'schedule', 'sends', 'summary', 'theme', 'timing', 'view', 'virtualStages'].sort());
  assert.deepEqual(own.instance, []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('properties set before the element is defined are taken over when it is', async () => {
  const { page, problems } = await browser.page('upgrade.html', { ready: null });
  await makespanIs(page, 'a', '51');
  assert.deepEqual(await page.evaluate(() => { const a = document.getElementById('a'); return [Object.getOwnPropertyNames(a), a.getAttribute('schedule'), a.ranks]; }), [[], 'zb-v', 4]);
  assert.deepEqual(problems, []);
  await page.close();
});

test('each element speaks its own language, also in what it draws after loading (the quiz bank)', async () => {
  const { page, problems } = await browser.page('lang.html', { ready: null });
  await makespanIs(page, 'a', '66');
  const question = page.locator('#quiz [data-testid=quiz-question]');
  await question.waitFor();
  assert.match(await question.textContent(), /[\u4e00-\u9fff]/);
  assert.match(await page.locator('#a .card-title').textContent(), / ranks · 20 micro-batches$/);
  assert.deepEqual(problems, []);
  await page.close();
});
