// Export from the page (SVG, PNG at 2x, CSV, Chrome trace, JSON, actions), import back, and the
// accessible alternatives: keyboard cells, the ops table, the colour-blind palette.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { downloaded, openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

async function downloadOf(page, testid) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-testid=${testid}]`)]);
  return { name: download.suggestedFilename(), bytes: await downloaded(download) };
}

test('every export downloads a well-formed file of the schedule on screen', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=8&cost=F=1,B=2,W=1');
  const svg = await downloadOf(page, 'export-svg');
  assert.equal(svg.name, 'pipesim-1f1b-4x8.svg');
  const parsed = await page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return { error: doc.querySelector('parsererror') !== null, root: doc.documentElement.nodeName };
  }, svg.bytes.toString('utf8'));
  assert.deepEqual(parsed, { error: false, root: 'svg' });

  const csv = (await downloadOf(page, 'export-csv')).bytes.toString('utf8').trim().split('\r\n');
  assert.equal(csv.length, 1 + 4 * 16);
  assert.equal(csv[0], 'rank,index,op,mb,phase,stage,b_mb,b_phase,b_stage,start,end,duration');

  const trace = JSON.parse((await downloadOf(page, 'export-chrome-trace')).bytes.toString('utf8'));
  assert.equal(trace.otherData.generator, 'pipesim');
  const flows = trace.traceEvents.filter((e) => e.ph === 's').length;
  assert.equal(flows, 2 * 3 * 8);

  const json = JSON.parse((await downloadOf(page, 'export-json')).bytes.toString('utf8'));
  assert.equal(json.makespan, 33);
  const actions = (await downloadOf(page, 'export-actions')).bytes.toString('utf8');
  assert.match(actions, /^0F0,0F1,0F2,0F3,0B0,/);

  const png = await downloadOf(page, 'export-png');
  assert.deepEqual([...png.bytes.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
  const pngWidth = png.bytes.readUInt32BE(16);
  const cssWidth = await page.locator('#panel-timeline canvas').evaluate((c) => c.clientWidth);
  assert.equal(pngWidth, 2 * cssWidth);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a downloaded Chrome trace imports back as a custom schedule with the same makespan', async () => {
  const { page, problems } = await browser.page('?schedule=zb-h1&ranks=4&micro-batches=8&cost=F=1,B=2,W=1,comm=0.5');
  const original = await page.textContent('[data-testid=makespan]');
  const trace = await downloadOf(page, 'export-chrome-trace');
  const file = join(tmpdir(), `pipesim-import-${process.pid}.json`);
  await writeFile(file, trace.bytes);
  await page.selectOption('[data-testid=schedule]', 'custom');
  await page.setInputFiles('[data-testid=custom-file]', file);
  await page.waitForFunction(() => document.querySelector('[data-testid=custom-schedule]').value.includes('traceEvents'));
  assert.equal(await page.isHidden('[data-testid=error]'), true);
  assert.equal(await page.textContent('[data-testid=makespan]'), original);
  assert.deepEqual(problems, []);
  await page.close();
});

test('arrow keys move between cells and announce them', async () => {
  const { page } = await browser.page('?schedule=dualpipe&ranks=4&micro-batches=8');
  await page.focus('#panel-timeline canvas');
  await page.keyboard.press('ArrowRight');
  const live = page.locator('#panel-timeline [aria-live=polite]').first();
  assert.match(await live.textContent(), /Forward \(F\)\. micro-batch 0 · direction 0/);
  await page.keyboard.press('ArrowRight');
  assert.match(await live.textContent(), /micro-batch 1/);
  await page.keyboard.press('ArrowDown');
  assert.match(await live.textContent(), /rank 1/);
  await page.keyboard.press('End');
  assert.match(await live.textContent(), /Weight gradient \(W\)/);
  await page.close();
});

test('the timeline has a table alternative, and a colour-blind palette', async () => {
  const { page } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=8&cost=F=1,B=2,W=1');
  await page.click('[data-testid=table-toggle]');
  assert.equal(await page.locator('[data-testid=ops-table] tbody tr').count(), 64);
  assert.equal(await page.getAttribute('[data-testid=table-toggle]', 'aria-expanded'), 'true');
  const orange = () =>
    page.locator('#panel-timeline canvas').evaluate((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] === 0xe6 && d[i + 1] === 0x9f && d[i + 2] === 0x00) n++;
      return n;
    });
  assert.equal(await orange(), 0);
  await page.check('#palette-toggle');
  await page.waitForFunction(() => document.documentElement.dataset.palette === 'cb');
  // The redraw follows the palette switch within a frame or so: wait until it is on the canvas.
  await page.waitForFunction(() => {
    const c = document.querySelector('#panel-timeline canvas');
    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] === 0xe6 && d[i + 1] === 0x9f && d[i + 2] === 0x00) n++;
    return n > 500;
  });
  assert.ok((await orange()) > 500, 'Okabe-Ito orange drawn');
  await page.close();
});
