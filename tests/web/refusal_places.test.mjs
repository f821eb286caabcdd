// How the page words a refusal's place and its lists, without the modules: a pasted schedule's line
// and token, a rank's op in its notation, a trace's event, and a deadlock's cycle worded link by link
// (web/src/i18n/refusals.ts, PLACES and LISTS). The wordings are the ones the engine gives
// (tests/test_custom.cpp checks them in C++); English stays the engine's own message.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadWebModule } from './load.mjs';

const { setLang, wordRefusal } = await loadWebModule('../../tests/web/fixtures/refusal_language');

const wording = (key, params) => ({ key, params: Object.fromEntries(params) });
const SYNTAX = wording('custom.action_syntax', [['at_kind', 'line_token'], ['at', '3'], ['token', '2X1']]);
const OUTSIDE = wording('op.mb_range', [['mb', '1'], ['max', '0'], ['at_kind', 'rank_op_named'], ['at', '0'], ['op', '0'], ['op_text', 'F1']]);
const PID = wording('trace_import.pid', [['min', '1'], ['max', '2'], ['at_kind', 'trace_event'], ['at', '0']]);
const CYCLE = wording('deadlock.cycle', [['cycle', '0 1 B0 B0 1 3;1 0 F1 F1 0 2'], ['more', '0']]);
const STUCK = wording('deadlock.lowering', [['stuck', '0 2 FB(F0,B1);3 0 F4']]);
// The reference timing's cycle: each link's {where} and {step} are lists of their own.
const COMM_CYCLE = wording('deadlock.comm_cycle', [['comm_cycle', '0|2 B0|0SEND_F1|1;1||1SEND_B0 1|0']]);
const PROGRAM = wording('comm.sends_twice', [['step', '3SEND_F5'], ['at_kind', 'comm_rank'], ['at', '2']]);

async function inLanguage(language, run) {
  await setLang(language, { updateDocument: false });
  try {
    return run();
  } finally {
    await setLang('en', { updateDocument: false });
  }
}

test('a pasted schedule\'s place (line and token, rank and op, trace event) is worded before its rule', async () => {
  await inLanguage('pt-BR', () => {
    assert.equal(wordRefusal('english', SYNTAX), "linha 3, token '2X1': esperava-se {estágio}{F|I|W|B}{micro-batch}, por exemplo 0F1");
    assert.equal(wordRefusal('english', OUTSIDE), 'rank 0, op 0 (F1): o micro-batch 1 está fora de 0..0');
    assert.equal(wordRefusal('english', PID), 'trace do pipesim: traceEvents[0]: pid deve ser o id de processo de um rank, rank + 1, de 1 a 2');
  });
  await inLanguage('zh-CN', () => {
    assert.equal(wordRefusal('english', SYNTAX), "第 3 行，token '2X1'：应为 {阶段}{F|I|W|B}{微批次}，例如 0F1");
    assert.equal(wordRefusal('english', OUTSIDE), 'rank 0，操作 0（F1）：微批次 1 超出 0..0');
  });
});

test('a deadlock is worded link by link from the cycle the engine found, its ops in their notation', async () => {
  await inLanguage('pt-BR', () => {
    assert.equal(
      wordRefusal('english', CYCLE),
      'deadlock: o rank 0 espera no op 1 (B0) por B0 (rank 1, op 3); o rank 1 espera no op 0 (F1) por F1 (rank 0, op 2); nenhum op deste ciclo pode começar',
    );
    assert.match(wordRefusal('english', STUCK), /: o rank 0 espera no op 2 \(FB\(F0,B1\)\); o rank 3 espera no op 0 \(F4\)$/);
  });
  await inLanguage('zh-CN', () => {
    assert.equal(
      wordRefusal('english', CYCLE),
      '死锁：rank 0 在操作 1（B0）处等待 B0（rank 1，操作 3）；rank 1 在操作 0（F1）处等待 F1（rank 0，操作 2）；此循环中没有操作能开始',
    );
  });
  await inLanguage('pt-BR', () => {
    assert.equal(
      wordRefusal('english', COMM_CYCLE),
      'deadlock na comunicação de referência: o rank 0 espera antes do op 2 (B0) por 0SEND_F1 (o rank 1 não lançou o seu lado); ' +
        'o rank 1 espera no fim do seu passo por 1SEND_B0 da direção 1 (o rank 0 não lançou o seu lado); nenhum rank deste ciclo pode continuar',
    );
    assert.equal(wordRefusal('english', PROGRAM), 'comunicação do rank 2: envia 3SEND_F5 duas vezes');
  });
  await inLanguage('zh-CN', () => {
    assert.equal(
      wordRefusal('english', COMM_CYCLE),
      '参考通信中的死锁：rank 0 在操作 2（B0）之前等待 0SEND_F1（rank 1 尚未发起其一侧）；' +
        'rank 1 在其步骤结束时等待方向 1 的 1SEND_B0（rank 0 尚未发起其一侧）；此循环中没有 rank 能继续',
    );
  });
  assert.equal(wordRefusal('the English message', CYCLE), 'the English message');
});
