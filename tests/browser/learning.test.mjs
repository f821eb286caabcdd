// The learning layer on the page: quiz (score, progress, live questions, course export), the lesson's
// exercises worked by the engine, and the planner.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { downloaded, openBrowser } from './harness.mjs';

const CLI = fileURLToPath(new URL('../../build/pipesim', import.meta.url));
let browser;
before(async () => (browser = await openBrowser()));
after(async () => browser?.close());

/** Index (in display order) of the correct option of the question on screen, from the bank. */
async function correctIndex(page) {
  const bank = JSON.parse(await readFile(new URL('../../core/data/quiz_bank.json', import.meta.url), 'utf8'));
  const text = await page.textContent('[data-testid=quiz-question]');
  const q = bank.questions.find((x) => x.question.en === text);
  const right = q.options[q.correct].en;
  const options = await page.$$eval('[data-testid=quiz-option]', (bs) => bs.map((b) => b.textContent));
  return options.indexOf(right);
}

test('answering right and wrong updates the score, and progress survives a reload until cleared', async () => {
  const { page, problems } = await browser.page('?view=quiz');
  const score = () => page.textContent('[data-testid=quiz-score]');
  assert.equal(await score(), 'Score: 0 right of 0 answered (28 questions)');
  const right = await correctIndex(page);
  await page.locator('[data-testid=quiz-option]').nth(right).click();
  assert.match(await page.textContent('[data-testid=quiz-feedback]'), /^Right\./);
  assert.equal(await score(), 'Score: 1 right of 1 answered (28 questions)');
  await page.click('[data-testid=quiz-next]');
  const wrong = ((await correctIndex(page)) + 1) % 4;
  await page.locator('[data-testid=quiz-option]').nth(wrong).click();
  assert.match(await page.textContent('[data-testid=quiz-feedback]'), /^Not quite\. Try again, or show the answer\./);
  assert.equal(await page.locator('.quiz-option.is-correct').count(), 0, 'a wrong answer does not give the right one away');
  await page.click('[data-testid=quiz-reveal]');
  assert.match(await page.textContent('[data-testid=quiz-feedback]'), /Source: /);
  assert.equal(await page.locator('.quiz-option.is-correct').count(), 1);
  assert.equal(await score(), 'Score: 1 right of 2 answered (28 questions)');
  await page.reload();
  await page.waitForSelector('[data-testid=quiz-score]');
  assert.equal(await score(), 'Score: 1 right of 2 answered (28 questions)');
  await page.click('[data-testid=quiz-reset]');
  assert.equal(await score(), 'Score: 0 right of 0 answered (28 questions)');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a retried question never counts as right, even after a reload', async () => {
  const { page, problems } = await browser.page('?view=quiz');
  const score = () => page.textContent('[data-testid=quiz-score]');
  const right = await correctIndex(page);
  await page.locator('[data-testid=quiz-option]').nth((right + 1) % 4).click();
  assert.equal(await score(), 'Score: 0 right of 1 answered (28 questions)');
  await page.click('[data-testid=quiz-retry]');
  assert.equal(await score(), 'Score: 0 right of 1 answered (28 questions)', 'a retry does not forget the miss');
  await page.locator('[data-testid=quiz-option]').nth(right).click();
  assert.match(await page.textContent('[data-testid=quiz-feedback]'), /^Right, on a second try: the score keeps your first answer\./);
  assert.equal(await score(), 'Score: 0 right of 1 answered (28 questions)');
  await page.reload();
  await page.waitForSelector('[data-testid=quiz-score]');
  assert.equal(await score(), 'Score: 0 right of 1 answered (28 questions)');
  await page.click('[data-testid=quiz-reset]');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the correct answer is not always in the same position', async () => {
  const { page } = await browser.page('?view=quiz');
  const positions = new Set();
  for (let i = 0; i < 10; i++) {
    positions.add(await correctIndex(page));
    await page.click('[data-testid=quiz-next]');
  }
  assert.ok(positions.size >= 3, `correct answers at ${[...positions]}`);
  await page.close();
});

test('live questions come from the engine for the settings on screen, one answered on the timeline', async () => {
  const { page, problems } = await browser.page('?view=quiz&ranks=8&micro-batches=16');
  await page.click('[data-testid=quiz-set-live]');
  assert.match(await page.textContent('[data-testid=quiz-question]'), /With 8 ranks, 16 micro-batches .* which schedule idles least\?/);
  const options = await page.$$eval('[data-testid=quiz-option]', (bs) => bs.map((b) => b.textContent));
  assert.ok(options.includes('DualPipe') && options.includes('1F1B'));
  await page.locator('[data-testid=quiz-option]', { hasText: /^DualPipe$/ }).click();
  assert.match(await page.textContent('[data-testid=quiz-feedback]'), /^Right\./); // DualPipe 11.1% vs 1F1B 30.4%
  await page.click('[data-testid=quiz-next]');
  assert.match(await page.textContent('[data-testid=quiz-question]'), /largest bubble of a rank/);
  await page.locator('[data-testid=quiz-option]', { hasText: /^6$/ }).click(); // (8/2-1)(3+2-3)
  assert.match(await page.textContent('[data-testid=quiz-feedback]'), /^Right\./);
  await page.click('[data-testid=quiz-next]');
  // Rank 0's first bordered F&B pair of DualPipe 8 x 16 starts at t = 17 (F7 with B3).
  const canvas = '.quiz-timeline canvas';
  const d = await page.locator(canvas).evaluate((c) => ({ ...c.dataset }));
  const box = await page.locator(canvas).boundingBox();
  const x = Number(d.px0) + ((18.5 - Number(d.t0)) / (Number(d.t1) - Number(d.t0))) * (Number(d.px1) - Number(d.px0));
  await page.mouse.click(box.x + x, box.y + Number(d.axis) + Number(d.rowHeight) / 2);
  const feedback = await page.textContent('[data-testid=quiz-feedback]');
  assert.match(feedback, /^Right\./);
  assert.match(feedback, /From t = 17 to 20/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the course export has exactly 1 pre, 3 check and 2 post questions with zero-indexed answers', async () => {
  const { page } = await browser.page('?view=quiz');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=quiz-export]')]);
  assert.equal(download.suggestedFilename(), 'quiz.json');
  const quiz = JSON.parse((await downloaded(download)).toString('utf8'));
  assert.equal(quiz.lesson, '19-dualpipe-parallelism');
  assert.deepEqual(quiz.questions.map((q) => q.stage), ['pre', 'check', 'check', 'check', 'post', 'post']);
  for (const q of quiz.questions) {
    assert.equal(q.options.length, 4);
    assert.ok(Number.isInteger(q.correct) && q.correct >= 0 && q.correct < 4);
    assert.ok(q.explanation.length > 20);
  }
  await page.close();
});

test('exercise 1 shows the engine numbers and follows a cost change', async () => {
  const { page, problems } = await browser.page('?view=exercises');
  const cli = (cost) => JSON.parse(spawnSync(CLI, ['lesson', '--exercise', '1', '--format', 'json', '--cost', cost], { encoding: 'utf8' }).stdout);
  const expected = cli('F=1,B=2,W=1,FB=3');
  assert.equal(await page.textContent('[data-testid=exercise-1-answer]'), expected.answer);
  await page.fill('[data-testid=cost-fb]', '2.5');
  const changed = cli('F=1,B=2,W=1,FB=2.5');
  assert.notEqual(changed.answer, expected.answer);
  await page.waitForFunction((text) => document.querySelector('[data-testid=exercise-1-answer]').textContent === text, changed.answer);
  // Exercise 2 outlines the first slot where a rank runs both directions.
  assert.equal(await page.locator('[data-testid=slot-table] .slot.is-first').count(), 1);
  assert.match(await page.textContent('[data-testid=slot-table] .slot.is-first'), /F3.*B1/);
  assert.deepEqual(problems, []);
  await page.close();
});

/** What `pipesim plan` recommends for core/data/plan_examples/NAME.json: the page must agree. */
const planned = (name) => {
  const input = fileURLToPath(new URL(`../../core/data/plan_examples/${name}.json`, import.meta.url));
  return JSON.parse(spawnSync(CLI, ['plan', '--input', input, '--format', 'json'], { encoding: 'utf8' }).stdout).recommendation.schedule;
};

test('the planner recommends what pipesim plan does for each example: a DualPipe schedule for DeepSeek-V3, another for one MoE node', async () => {
  const { page, problems } = await browser.page('?view=planner');
  const rec = page.locator('[data-testid=planner-recommendation]');
  await rec.waitFor();
  assert.equal(await rec.getAttribute('data-schedule'), planned('deepseek-v3'));
  assert.match(await rec.getAttribute('data-schedule'), /^dualpipev?$/);
  assert.match(await rec.textContent(), /all-to-all/);
  const other = planned('moe-one-node-ep');
  assert.doesNotMatch(other, /^dualpipe/);
  await page.selectOption('[data-testid=planner-example]', 'moe-one-node');
  await page.waitForFunction((want) => document.querySelector('[data-testid=planner-recommendation]').dataset.schedule === want, other);
  await page.selectOption('[data-testid=planner-example]', 'small-dense');
  await page.waitForFunction((want) => document.querySelector('[data-testid=planner-recommendation]').dataset.schedule === want, planned('small-dense'));
  assert.ok((await page.locator('[data-testid=planner-table] tbody tr').count()) >= 5);
  await page.fill('[data-testid=planner-input]', '{"cluster": {}}');
  assert.match(await page.textContent('[data-testid=planner-error]'), /Not accepted:/);
  assert.deepEqual(problems, []);
  await page.close();
});
