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

/** The documents the engine names in its size and shape refusals ({what}). */
const DOCUMENTS: Record<Exclude<Lang, 'en'>, Record<string, string>> = {
  'pt-BR': { 'a workload': 'a carga de trabalho', 'plan input': 'a entrada do planejador', 'a stage cost table': 'a tabela de custos por estágio', 'a custom schedule': 'o escalonamento personalizado', 'schedule JSON': 'o JSON do escalonamento' },
  'zh-CN': { 'a workload': '工作负载', 'plan input': '规划器输入', 'a stage cost table': '分阶段成本表', 'a custom schedule': '自定义调度', 'schedule JSON': '调度 JSON' },
};

/** The kinds a refusal quotes for a JSON array or object it got ({value}: the engine's describe_json). */
const JSON_KINDS: Record<Exclude<Lang, 'en'>, Record<string, string>> = {
  'pt-BR': { 'an array': 'um array', 'an object': 'um objeto' },
  'zh-CN': { 'an array': '一个数组', 'an object': '一个对象' },
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
    // The planner's JSON input (core/course/src/planner.cpp).
    'plan.not_json': 'a entrada do planejador não é um JSON válido; espera-se um objeto com "cluster", "model" e, opcionalmente, "assumptions"',
    'plan.input_not_object': 'entrada do planejador: a entrada deve ser um objeto JSON',
    'plan.not_object': 'entrada do planejador: {name} deve ser um objeto JSON',
    'plan.unknown_key': 'entrada do planejador: chave desconhecida {name}; as chaves permitidas são {allowed}',
    'plan.missing_object': 'entrada do planejador: falta {name} (um objeto JSON)',
    'plan.missing_whole': 'entrada do planejador: falta {name} (um número inteiro de {min} a {max})',
    'plan.missing_number': 'entrada do planejador: falta {name} (um número de {min} a {max})',
    'plan.range_whole': 'entrada do planejador: {name} deve ser um número inteiro de {min} a {max}, recebeu {value}',
    'plan.range_number': 'entrada do planejador: {name} deve ser um número de {min} a {max}, recebeu {value}',
    'plan.string': 'entrada do planejador: {name} deve ser um texto, recebeu {value}',
    'plan.choice': 'entrada do planejador: {name} deve ser um de {choices}, recebeu {value}',
    'plan.gpus_multiple_of_pp': 'entrada do planejador: cluster.gpus ({gpus}) deve ser múltiplo de model.pp ({pp})',
    'plan.ep_needs_experts': 'entrada do planejador: model.ep só se aplica a modelos MoE (model.experts > 0)',
    'plan.ep_divides_stage': 'entrada do planejador: model.ep ({ep}) deve dividir as GPUs de um estágio do pipeline, cluster.gpus / model.pp = {per_stage}',
    'plan.ep_exceeds_experts': 'entrada do planejador: model.ep ({ep}) não pode passar de model.experts ({experts})',
    // The chunk model's workload (core/course/src/workload.cpp, overlap.cpp).
    'workload.not_json': 'a carga de trabalho não é um JSON válido',
    'workload.not_object': 'uma carga de trabalho deve ser um objeto JSON de números; os campos obrigatórios são {required}',
    'workload.unknown_field': "campo de carga de trabalho desconhecido '{name}'; os campos são {fields}",
    'workload.missing': "falta o campo de carga de trabalho '{name}'; os campos obrigatórios são {required}",
    'workload.number': "o campo de carga de trabalho '{name}' deve ser um número, recebeu {value}",
    'workload.whole': "o campo de carga de trabalho '{name}' deve ser um número inteiro >= {min}, recebeu {value}",
    'workload.positive': "o campo de carga de trabalho '{name}' deve ser um número > 0, recebeu {value}",
    'workload.non_negative': "o campo de carga de trabalho '{name}' deve ser um número >= 0, recebeu {value}",
    'workload.sms_need_comm': 'os campos total_sms e saturation_sms da carga de trabalho precisam de comm_sms, os SMs dados à comunicação',
    'workload.top_k': 'na carga de trabalho, top_k ({top_k}) não pode passar de experts ({experts})',
    'workload.nodes_per_token': 'na carga de trabalho, nodes_per_token ({nodes}) não pode passar de top_k ({top_k}): um token chega no máximo a um nó por expert',
    'sms.total': 'o total de SMs deve ser pelo menos 2, recebeu {value}',
    'sms.comm': 'os SMs de comunicação devem ser pelo menos 1 e menos que o total de SMs ({total}), recebeu {value}',
    'sms.saturation': 'os SMs de saturação devem ser pelo menos 1, recebeu {value}',
    // The Chunk tab's own fields (core/course/src/overlap_request.cpp); {name} and the like are the
    // fields' names as the page or the CLI spells them.
    'chunk.ratio': "{name} deve ser cálculo:comunicação como 1:1 ou um número > 0, recebeu '{value}'",
    'chunk.ratio_range': "{name} deve ficar entre 1:1000000 e 1000000:1, recebeu '{value}'",
    'chunk.forward_backward_together': '{forward} e {backward} vão juntos: informe os dois, ou nenhum para usar {workload}',
    'chunk.sms_need_comm': '{total_sms} e {saturation_sms} precisam de {comm_sms}, os SMs dados à comunicação',
    'chunk.workload_replaces': '{workload} substitui {forward}, {backward} e {pp_comm}: informe um ou outro',
    // Any document's size and shape (core/internal/detail/input_size.h, json_text.h); {what} is worded by DOCUMENTS.
    'document.too_large': '{what} pode ter no máximo {max} (recebeu {value})',
    'document.nul': '{what} contém um byte NUL (no byte {at}); deve ser texto',
    'document.too_many_values': '{what} tem mais de {max} valores, mais do que qualquer documento que o pipesim lê',
    'document.too_deep': '{what} aninha mais de {max} níveis de arrays e objetos, mais do que qualquer documento que o pipesim lê',
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
    // The planner's JSON input (core/course/src/planner.cpp).
    'plan.not_json': '规划器输入不是有效的 JSON；应为包含 "cluster"、"model" 以及可选 "assumptions" 的对象',
    'plan.input_not_object': '规划器输入：输入必须是 JSON 对象',
    'plan.not_object': '规划器输入：{name} 必须是 JSON 对象',
    'plan.unknown_key': '规划器输入：未知的键 {name}；允许的键有 {allowed}',
    'plan.missing_object': '规划器输入：缺少 {name}（一个 JSON 对象）',
    'plan.missing_whole': '规划器输入：缺少 {name}（{min} 到 {max} 的整数）',
    'plan.missing_number': '规划器输入：缺少 {name}（{min} 到 {max} 的数）',
    'plan.range_whole': '规划器输入：{name} 必须是 {min} 到 {max} 的整数，收到 {value}',
    'plan.range_number': '规划器输入：{name} 必须是 {min} 到 {max} 的数，收到 {value}',
    'plan.string': '规划器输入：{name} 必须是字符串，收到 {value}',
    'plan.choice': '规划器输入：{name} 必须是 {choices} 之一，收到 {value}',
    'plan.gpus_multiple_of_pp': '规划器输入：cluster.gpus（{gpus}）必须是 model.pp（{pp}）的整数倍',
    'plan.ep_needs_experts': '规划器输入：model.ep 只适用于 MoE 模型（model.experts > 0）',
    'plan.ep_divides_stage': '规划器输入：model.ep（{ep}）必须整除一个流水线阶段的 GPU 数，cluster.gpus / model.pp = {per_stage}',
    'plan.ep_exceeds_experts': '规划器输入：model.ep（{ep}）不能超过 model.experts（{experts}）',
    // The chunk model's workload (core/course/src/workload.cpp, overlap.cpp).
    'workload.not_json': '工作负载不是有效的 JSON',
    'workload.not_object': '工作负载必须是由数字组成的 JSON 对象；必填字段有 {required}',
    'workload.unknown_field': "未知的工作负载字段 '{name}'；字段有 {fields}",
    'workload.missing': "缺少工作负载字段 '{name}'；必填字段有 {required}",
    'workload.number': "工作负载字段 '{name}' 必须是数，收到 {value}",
    'workload.whole': "工作负载字段 '{name}' 必须是 >= {min} 的整数，收到 {value}",
    'workload.positive': "工作负载字段 '{name}' 必须是 > 0 的数，收到 {value}",
    'workload.non_negative': "工作负载字段 '{name}' 必须是 >= 0 的数，收到 {value}",
    'workload.sms_need_comm': '工作负载字段 total_sms 和 saturation_sms 需要 comm_sms，即分给通信的 SM 数',
    'workload.top_k': '工作负载的 top_k（{top_k}）不能超过 experts（{experts}）',
    'workload.nodes_per_token': '工作负载的 nodes_per_token（{nodes}）不能超过 top_k（{top_k}）：每个专家只让 token 到达至多一个节点',
    'sms.total': 'SM 总数至少为 2，收到 {value}',
    'sms.comm': '通信 SM 数必须至少为 1 且少于 SM 总数（{total}），收到 {value}',
    'sms.saturation': '饱和 SM 数至少为 1，收到 {value}',
    // The Chunk tab's own fields (core/course/src/overlap_request.cpp).
    'chunk.ratio': "{name} 必须是“计算:通信”形式（如 1:1）或 > 0 的数，收到 '{value}'",
    'chunk.ratio_range': "{name} 必须介于 1:1000000 与 1000000:1 之间，收到 '{value}'",
    'chunk.forward_backward_together': '{forward} 和 {backward} 需一起给出：两者都给，或都不给以使用 {workload}',
    'chunk.sms_need_comm': '{total_sms} 和 {saturation_sms} 需要 {comm_sms}，即分给通信的 SM 数',
    'chunk.workload_replaces': '{workload} 取代 {forward}、{backward} 和 {pp_comm}：二者只能选其一',
    // Any document's size and shape (core/internal/detail/input_size.h, json_text.h).
    'document.too_large': '{what}最多为 {max}（收到 {value}）',
    'document.nul': '{what}包含 NUL 字节（位于第 {at} 字节）；它必须是文本',
    'document.too_many_values': '{what}包含超过 {max} 个值，多于 pipesim 读取的任何文档',
    'document.too_deep': '{what}的数组和对象嵌套超过 {max} 层，多于 pipesim 读取的任何文档',
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
    if (name === 'what') return DOCUMENTS[current][value] ?? value;
    if (name === 'value' && JSON_KINDS[current][value]) return JSON_KINDS[current][value];
    // pt-BR writes a decimal comma, as the page's numbers do.
    return current === 'pt-BR' && /^-?\d+\.\d+$/.test(value) ? value.replace('.', ',') : value;
  });
}
