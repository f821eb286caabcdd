// Engine refusals in the page's language: the engine gives each refusal a key and the values it
// quotes, and a pt-BR or zh-CN page words it from its own catalogue (web/src/i18n/refusals.ts), at
// the error box and at the field, with no English left. English pages show the engine's own text.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

/** A link that each rule refuses, by the rule's key. */
const REFUSED = {
  'dualpipe.even_ranks': 'ranks=7',
  'dualpipe.micro_batches': 'ranks=8&micro-batches=14',
  'chimera.even_ranks': 'schedule=chimera&ranks=3&micro-batches=6',
  'chimera.micro_batches': 'schedule=chimera&ranks=4&micro-batches=6',
  'dualpipev.micro_batches': 'schedule=dualpipev&ranks=4&micro-batches=6',
  'interleaved.virtual_stages': 'schedule=interleaved-1f1b&ranks=4&micro-batches=8&virtual-stages=1',
  'interleaved.micro_batches': 'schedule=interleaved-1f1b&ranks=4&micro-batches=9&virtual-stages=2',
  'size.at_least_1': 'schedule=1f1b&ranks=0',
  'size.at_most': 'schedule=1f1b&micro-batches=2000000',
  'size.ops': 'schedule=1f1b&ranks=4096&micro-batches=1024',
  'size.whole_number': 'schedule=1f1b&ranks=abc',
  'schedule.unknown': 'schedule=nope',
  'cost.negative': 'schedule=1f1b&cost=F=-1,B=2,W=1',
  'cost.range': 'schedule=1f1b&cost=F=0.0000000001,B=2,W=1',
  'cost.w_exceeds_b': 'schedule=1f1b&cost=F=1,B=1,W=2,FB=2',
  'cost.no_work': 'schedule=1f1b&cost=F=0,B=0,W=0,FB=0',
  'cost.fb_range': 'schedule=1f1b&cost=F=1,B=6,W=1,FB=3',
};
const ENGLISH = /\b(needs|must|got|unknown|cannot|least|most|between|exceed)\b/;

for (const lang of ['pt-BR', 'zh-CN']) {
  test(`every engine refusal is worded in ${lang}, none left in English`, async () => {
    const seen = {};
    for (const [key, query] of Object.entries(REFUSED)) {
      const { page, problems } = await browser.page(`?lang=${lang}&${query}`, { ready: '#app[data-state=ready]' });
      await page.waitForSelector('[data-testid=error]:not([hidden])');
      const text = await page.textContent('[data-testid=error]');
      assert.doesNotMatch(text, ENGLISH, `${key}: ${text}`);
      seen[key] = text;
      assert.deepEqual(problems, []);
      await page.close();
    }
    if (lang === 'pt-BR') {
      assert.match(seen['dualpipe.even_ranks'], /o dualpipe precisa de um número par de ranks, pelo menos 2: .*\(recebeu 7 ranks\)/);
      assert.match(seen['cost.fb_range'], /o custo FB \(3\) deve ficar em \[max\(F,B\), F\+B\] = \[6, 7\]/);
      assert.match(seen['size.whole_number'], /ranks deve ser um número inteiro, recebeu abc/);
    } else {
      assert.match(seen['dualpipe.even_ranks'], /dualpipe 需要偶数个 rank，至少 2 个.*（收到 7 个 rank）/);
      assert.match(seen['schedule.unknown'], /未知的调度“nope”/);
    }
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
