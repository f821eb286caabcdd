// Engine refusals in the page's language: the engine gives each refusal a key and the values it
// quotes, and a pt-BR or zh-CN page words it from its own catalogue (web/src/i18n/refusals.ts), at
// the error box and at the field, with no English left. English pages show the engine's own text.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './harness.mjs';
import { ENGLISH, REFUSED } from '../web/fixtures/refused_links.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());


// Every rule's wording in both languages is checked in Node (tests/web/refusal_wording.test.mjs, same
// links); here the page shows one refusal per language, worded in its error box.
for (const [lang, key] of [['pt-BR', 'cost.fb_range'], ['zh-CN', 'schedule.unknown']]) {
  test(`an engine refusal is worded in ${lang} in the error box, none left in English`, async () => {
    const { page, problems } = await browser.page(`?lang=${lang}&${REFUSED[key]}`, { ready: '#app[data-state=ready]' });
    await page.waitForSelector('[data-testid=error]:not([hidden])');
    const text = await page.textContent('[data-testid=error]');
    assert.doesNotMatch(text, ENGLISH, `${key}: ${text}`);
    if (lang === 'pt-BR') assert.match(text, /o custo FB \(3\) deve ficar em \[max\(F,B\), F\+B\] = \[6, 7\]/);
    else assert.match(text, /未知的调度“nope”/);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('a refusal typed in a pt-BR page is worded at its field too, and English pages keep the engine text', async () => {
  const { page, problems } = await browser.page('?lang=pt-BR');
  await page.fill('[data-testid=ranks]', '7');
  assert.match(await page.textContent('[data-testid=ranks-refusal]'), /^o dualpipe precisa de um número par de ranks/);
  assert.equal(await page.getAttribute('[data-testid=ranks]', 'aria-invalid'), 'true');
  await page.close();
  const en = await browser.page('?ranks=7');
  assert.match(await en.page.textContent('[data-testid=error]'), /dualpipe needs an even number of ranks, at least 2: rank r is paired with rank N-1-r \(got 7 ranks\)/);
  await en.page.close();
  assert.deepEqual(problems, []);
});
