// The schedule in motion: play, pause, step and speed over the timeline; each rank's warm-up, steady
// and cool-down with the idle time of each, adding up to the rank's bubble; one micro-batch's path
// with its dependency arrows; and steps instead of flowing motion when the reader asks for less motion.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ARTIFACTS, cellCentre, openBrowser } from './harness.mjs';

let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

const rows = (page, selector) => page.$$eval(`${selector} tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));

test('1F1B at 4 ranks, 8 micro-batches: rank 0 idles (p-1)B = 6 in warm-up and (p-1)F = 3 in cool-down', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=8');
  const phases = await rows(page, '[data-testid=phases-table]');
  assert.deepEqual(phases[0], ['rank 0', '0–10, idle 6', '10–22, idle 0', '22–33, idle 3', '9']);
  // Every rank's phases add up to its bubble in the per-rank table.
  const perRank = await rows(page, '[data-testid=per-rank-table]');
  phases.forEach((row, r) => assert.equal(row[4], perRank[r][2], `rank ${r}`));
  assert.deepEqual(problems, []);
  await page.close();
});

test('DualPipe (Fig. 5): the phases of every rank add up to its bubble of 6', async () => {
  const { page, problems } = await browser.page('');
  const phases = await rows(page, '[data-testid=phases-table]');
  assert.equal(phases.length, 8);
  for (const row of phases) assert.equal(row[4], '6');
  assert.equal(await page.locator('.player-band.is-steady').count(), 8, 'a steady band over every rank');
  assert.deepEqual(problems, []);
  await page.close();
});

test('play runs the schedule in time order; pause stops it; step moves to the next op boundary', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=8');
  const canvas = '#panel-timeline canvas';
  await page.click('[data-testid=player-step]');
  assert.equal(await page.textContent('[data-testid=player-time]'), 't = 1 of 33', 'the first forward ends at 1');
  await page.click('[data-testid=player-step]');
  assert.equal(await page.textContent('[data-testid=player-time]'), 't = 2 of 33');
  assert.equal(await page.locator('.player-cursor').count(), 1);
  await page.selectOption('[data-testid=player-speed]', '4');
  await page.click('[data-testid=player-play]');
  assert.equal(await page.textContent('[data-testid=player-play]'), 'Pause');
  // Pause while it plays, in the same task that sees it playing: a click after a separate read could
  // land after the run had played to its end on a loaded machine, and start it again. Should a stalled
  // frame carry it from its start to its end unseen, play it again and pause the next time.
  await page.waitForFunction(() => {
    const button = document.querySelector('[data-testid=player-play]');
    const time = Number(document.querySelector('[data-testid=player-time]').textContent.split(' ')[2]);
    if (button.textContent !== 'Pause') {
      button.click();
      return false;
    }
    if (!(time > 2 && time < 33)) return false;
    button.click();
    return true;
  });
  assert.equal(await page.textContent('[data-testid=player-play]'), 'Play');
  const paused = await page.textContent('[data-testid=player-time]');
  assert.match(paused, /^t = \d+(\.\d+)? of 33$/);
  // Ten animation frames later (the player moves on each frame it plays) the time has not moved.
  await page.evaluate(() => new Promise((done) => {
    let frames = 0;
    const next = () => (++frames >= 10 ? done() : requestAnimationFrame(next));
    requestAnimationFrame(next);
  }));
  assert.equal(await page.textContent('[data-testid=player-time]'), paused, 'paused stays put');
  // Played to the end, the whole run is back.
  await page.click('[data-testid=player-play]');
  await page.waitForFunction(() => document.querySelector('[data-testid=player-play]').textContent === 'Play');
  assert.equal(await page.locator('.player-cursor').count(), 0);
  assert.equal(await page.locator(canvas).getAttribute('data-t1'), '33');
  assert.deepEqual(problems, []);
  await page.close();
});

test('with reduced motion, play moves from op boundary to op boundary', async () => {
  const { page, problems } = await browser.page(null);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`${browser.url}?schedule=1f1b&ranks=4&micro-batches=8`);
  await page.waitForSelector('#app[data-state=ready]');
  await page.evaluate(() => {
    window.timesSeen = [];
    const clock = document.querySelector('[data-testid=player-time]');
    new MutationObserver(() => window.timesSeen.push(clock.textContent)).observe(clock, { childList: true, characterData: true, subtree: true });
  });
  await page.selectOption('[data-testid=player-speed]', '4');
  await page.click('[data-testid=player-play]');
  await page.waitForFunction(() => window.timesSeen.length >= 4);
  await page.click('[data-testid=player-play]');
  const times = (await page.evaluate(() => window.timesSeen)).slice(0, 4);
  assert.deepEqual(times, ['t = 1 of 33', 't = 2 of 33', 't = 3 of 33', 't = 4 of 33'], 'whole steps, no frames in between');
  assert.deepEqual(problems, []);
  await page.close();
});

test('clicking a cell follows its micro-batch across the ranks, with an arrow per hand-over', async () => {
  const { page, problems } = await browser.page('?schedule=1f1b&ranks=4&micro-batches=8');
  const where = await cellCentre(page, '#panel-timeline canvas', { rank: 0, start: 0, end: 1 });
  await page.mouse.click(where.x, where.y);
  // F0 down ranks 0..3, B0 back up 3..0: 8 ops, 6 hand-overs between ranks.
  assert.equal(await page.textContent('[data-testid=path-note]'), 'Micro-batch 0: 8 ops on 4 ranks, each arrow a result sent to the next rank, which waits for it.');
  assert.equal(await page.locator('.player-arrow').count(), 6);
  await page.screenshot({ path: join(ARTIFACTS, 'motion-path.png') });
  assert.deepEqual(problems, []);
  await page.close();
});
