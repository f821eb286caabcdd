// The engine's refusals in the page's language. The engine gives each refusal a key naming its rule
// and the values it quotes (pipesim::Wording, core/engine/include/pipesim/error.h); its English message is
// the CLI's text and is shown as it is in English. Other languages word the same refusal from this
// catalogue, so no English is left on a pt-BR or zh-CN page. A key missing here falls back to the
// engine's English, which tests/browser/refusals.test.mjs would catch for the rules it walks.
import type { Wording } from '../engine/engine';
import { lang, type Lang } from './index';

type Catalogue = Record<string, string>;

/** The engine's names of sizes and costs, as the refusals quote them. */
const FIELDS: Record<Exclude<Lang, 'en'>, Record<string, string>> = {
  'pt-BR': { ranks: 'ranks', 'micro-batches': 'micro-batches', 'virtual stages': 'estágios virtuais', 'largest value': 'maior valor' },
  'zh-CN': { ranks: 'rank 数', 'micro-batches': '微批次数', 'virtual stages': '虚拟阶段数', 'largest value': '最大值' },
};

const CATALOGUES: Record<Exclude<Lang, 'en'>, Catalogue> = {
  'pt-BR': {
    'dualpipe.even_ranks': 'o dualpipe precisa de um número par de ranks, pelo menos 2: o rank r forma par com o rank N-1-r (recebeu {ranks} ranks)',
    'dualpipe.micro_batches': 'o dualpipe precisa de um número par de micro-batches (metade entra por cada ponta), pelo menos 2 × ranks com {ranks} ranks (recebeu {micro_batches} micro-batches)',
    'chimera.even_ranks': 'o chimera precisa de um número par de ranks (estágios), pelo menos 2: os dois pipelines se encontram no meio (recebeu {ranks} ranks)',
    'chimera.micro_batches': 'o chimera precisa de micro-batches em múltiplo do número de estágios, {ranks}: cada unidade básica é um micro-batch por estágio, metade entrando por cada ponta (recebeu {micro_batches} micro-batches)',
    'dualpipev.micro_batches': 'o dualpipev precisa de pelo menos 2 × ranks micro-batches com {ranks} ranks, tantos quanto os estágios (recebeu {micro_batches} micro-batches)',
    'interleaved.virtual_stages': 'o interleaved-1f1b precisa de pelo menos 2 estágios virtuais por rank (com 1 ele é o 1f1b comum) (recebeu {virtual_stages})',
    'interleaved.micro_batches': 'o interleaved-1f1b precisa de micro-batches em múltiplo das rodadas max(1, micro-batches / ranks) = {rounds}, como exige o ScheduleInterleaved1F1B do PyTorch (recebeu {micro_batches} micro-batches com {ranks} ranks)',
    'size.at_least_1': '{field} deve ser pelo menos 1 (recebeu {value})',
    'size.at_most': '{field} deve ser no máximo {max}, o limite de uma execução (recebeu {value})',
    'size.virtual_stages_unused': 'o {schedule} tem um estágio por rank; estágios virtuais só se aplicam a escalonamentos intercalados',
    'size.ops': 'o {schedule} com {size} teria {ops} ops, acima das {max} ops que uma execução pode ter',
    'size.whole_number': '{field} deve ser um número inteiro, recebeu {value}',
    'schedule.unknown': 'escalonamento desconhecido \u2018{name}\u2019; os conhecidos são: {known}',
    'cost.negative': 'o custo {cost} deve ser um número finito >= 0, recebeu {value}',
    'cost.range': 'o custo {cost} deve ser 0 ou estar entre {min} e {max}, recebeu {value}',
    'cost.w_exceeds_b': 'o custo W ({w}) não pode passar de B ({b}): B é o backward completo e contém W',
    'cost.no_work': 'os custos F e B não podem ser ambos 0: um pipeline sem trabalho não tem linha do tempo',
    'cost.fb_range': 'o custo FB ({fb}) deve ficar em [max(F,B), F+B] = [{lo}, {hi}]: um par sobreposto leva pelo menos a sua metade mais longa e no máximo as duas',
  },
  'zh-CN': {
    'dualpipe.even_ranks': 'dualpipe 需要偶数个 rank，至少 2 个：rank r 与 rank N-1-r 配对（收到 {ranks} 个 rank）',
    'dualpipe.micro_batches': 'dualpipe 需要偶数个微批次（每端进入一半），且至少为 2 × rank 数，rank 数为 {ranks}（收到 {micro_batches} 个微批次）',
    'chimera.even_ranks': 'chimera 需要偶数个 rank（阶段），至少 2 个：两条流水线在中间相遇（收到 {ranks} 个 rank）',
    'chimera.micro_batches': 'chimera 需要微批次数是阶段数 {ranks} 的整数倍：每个基本单元是每个阶段一个微批次，一半从每端进入（收到 {micro_batches} 个微批次）',
    'dualpipev.micro_batches': 'dualpipev 至少需要 2 × rank 数个微批次（与阶段数相同），rank 数为 {ranks}（收到 {micro_batches} 个微批次）',
    'interleaved.virtual_stages': 'interleaved-1f1b 每个 rank 至少需要 2 个虚拟阶段（只有 1 个时就是普通的 1f1b）（收到 {virtual_stages} 个）',
    'interleaved.micro_batches': 'interleaved-1f1b 需要微批次数是轮数 max(1, 微批次数 / rank 数) = {rounds} 的整数倍，这是 PyTorch 的 ScheduleInterleaved1F1B 的要求（收到 {micro_batches} 个微批次、{ranks} 个 rank）',
    'size.at_least_1': '{field}至少为 1（收到 {value}）',
    'size.at_most': '{field}最多为 {max}，这是单次运行的上限（收到 {value}）',
    'size.virtual_stages_unused': '{schedule} 每个 rank 只有一个阶段；虚拟阶段只适用于交错调度',
    'size.ops': '{schedule} 在 {size} 下会有 {ops} 个操作，超过单次运行允许的 {max} 个操作',
    'size.whole_number': '{field}必须是整数，收到 {value}',
    'schedule.unknown': '未知的调度“{name}”；已知的调度有：{known}',
    'cost.negative': '成本 {cost} 必须是 >= 0 的有限数，收到 {value}',
    'cost.range': '成本 {cost} 必须为 0 或介于 {min} 与 {max} 之间，收到 {value}',
    'cost.w_exceeds_b': '成本 W（{w}）不能超过 B（{b}）：B 是完整的反向传播，包含 W',
    'cost.no_work': '成本 F 和 B 不能同时为 0：没有计算的流水线没有时间线',
    'cost.fb_range': '成本 FB（{fb}）必须位于 [max(F,B), F+B] = [{lo}, {hi}]：重叠的一对至少耗时其较长的一半，至多为两者之和',
  },
};

/** The keys this catalogue words, for tests. */
export const REFUSAL_KEYS = Object.keys(CATALOGUES['pt-BR']);

/** `english` (the engine's message) in the page's language, from the refusal's key and values. */
export function wordRefusal(english: string, wording: Wording | undefined): string {
  const current = lang();
  if (current === 'en' || !wording) return english;
  const template = CATALOGUES[current][wording.key];
  if (!template) return english;
  const fields = FIELDS[current];
  return template.replace(/\{(\w+)\}/g, (m, name: string) => {
    const value = wording.params[name];
    if (value === undefined) return m;
    if (name === 'field') return fields[value] ?? value;
    // pt-BR writes a decimal comma, as the page's numbers do.
    return current === 'pt-BR' && /^-?\d+\.\d+$/.test(value) ? value.replace('.', ',') : value;
  });
}
