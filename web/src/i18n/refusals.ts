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
  'pt-BR': { 'a workload': 'a carga de trabalho', 'plan input': 'a entrada do planejador', 'a stage cost table': 'a tabela de custos por estágio', 'a custom schedule': 'o escalonamento personalizado', 'schedule JSON': 'o JSON do escalonamento', 'a measured pipeline': 'um pipeline medido', '--measured': '--measured' },
  'zh-CN': { 'a workload': '工作负载', 'plan input': '规划器输入', 'a stage cost table': '分阶段成本表', 'a custom schedule': '自定义调度', 'schedule JSON': '调度 JSON', 'a measured pipeline': '实测流水线', '--measured': '--measured' },
};

/** The kinds a refusal quotes for a JSON array or object it got ({value}: the engine's describe_json). */
const JSON_KINDS: Record<Exclude<Lang, 'en'>, Record<string, string>> = {
  'pt-BR': { 'an array': 'um array', 'an object': 'um objeto', 'a number': 'um número', 'a string': 'um texto', 'a boolean': 'um booleano' },
  'zh-CN': { 'an array': '一个数组', 'an object': '一个对象', 'a number': '一个数', 'a string': '一个字符串', 'a boolean': '一个布尔值' },
};

/** The chunk's two halves a component refusal names ({which}). */
const SIDES: Record<Exclude<Lang, 'en'>, Record<string, string>> = {
  'pt-BR': { forward: 'do forward', backward: 'do backward' },
  'zh-CN': { forward: '前向', backward: '反向' },
};

/** Why a JSON text does not parse ({reason}: core/internal/detail/json_fields.h, json_failure_reason). */
const REASONS: Record<Exclude<Lang, 'en'>, Record<string, string>> = {
  'pt-BR': {
    unexpected_end: 'o texto acaba antes do fim do valor', invalid_literal: 'palavra inválida (só valem true, false e null)',
    invalid_string: 'texto entre aspas inválido', invalid_number: 'número mal escrito', number_out_of_range: 'número grande demais',
    trailing_text: 'há texto depois do fim do JSON', unexpected_token: 'caractere fora do lugar', malformed: 'estrutura inválida',
  },
  'zh-CN': {
    unexpected_end: '文本在值结束前就结束了', invalid_literal: '无效的字面量（只能是 true、false 或 null）',
    invalid_string: '无效的字符串', invalid_number: '数字写法有误', number_out_of_range: '数字太大',
    trailing_text: 'JSON 结束后还有多余的文本', unexpected_token: '字符位置不对', malformed: '结构无效',
  },
};

/**
 * Where in a larger input a refusal happened (params at_kind and at: Error::within in error.h). A
 * place may quote the refusal's other values too: a pasted schedule's line and token, a rank's op
 * index and the op in its notation (1F0), which every language keeps.
 */
const PLACES: Record<Exclude<Lang, 'en'>, Record<string, string>> = {
  'pt-BR': {
    stage: 'estágio {at}: ', model_stage: 'estágio do modelo {at}: ', trace: 'trace {at}: ',
    line_token: "linha {at}, token '{token}': ", rank: 'rank {at}: ', rank_op: 'rank {at}, op {op}: ',
    rank_op_named: 'rank {at}, op {op} ({op_text}): ', trace_event: 'trace do pipesim: traceEvents[{at}]: ',
    comm_rank: 'comunicação do rank {at}: ', document: '{what}: ', trace_other_data: 'trace do pipesim, otherData: ',
  },
  'zh-CN': {
    stage: '阶段 {at}：', model_stage: '模型阶段 {at}：', trace: 'trace {at}：',
    line_token: "第 {at} 行，token '{token}'：", rank: 'rank {at}：', rank_op: 'rank {at}，操作 {op}：',
    rank_op_named: 'rank {at}，操作 {op}（{op_text}）：', trace_event: 'pipesim trace：traceEvents[{at}]：',
    comm_rank: 'rank {at} 的通信：', document: '{what}：', trace_other_data: 'pipesim trace 的 otherData：',
  },
};

/**
 * Values a refusal gives in parts ({cycle}, {stuck}, {step}, {where}): entries split by ';', each
 * entry's fields by `split` (' ' unless said) in the order `fields` names them, a field that is itself
 * listed here worded the same way (the engine's deadlock reports and communication programs,
 * core/engine/src/simulate.cpp and reference/). `short` words an entry that gives fewer fields (a
 * step of a one-path schedule, a rank at the end of its step). The ops are in their notation (1F0,
 * FB(F0,B1), 3SEND_F5), which no language changes.
 */
type ListSpec = {
  fields: string[];
  split?: string;
  /** The last field takes the rest of the entry (a field name with spaces: "virtual stages"). */
  rest?: boolean;
  /** Between entries, in the value and in each language (';' and '; ' / '；' unless said). */
  entries?: string;
  join?: Record<Exclude<Lang, 'en'>, string>;
  entry: Record<Exclude<Lang, 'en'>, string>;
  short?: Record<Exclude<Lang, 'en'>, string>;
};
const STEP: ListSpec = {
  fields: ['step', 'direction'],
  entry: { 'pt-BR': '{step} da direção {direction}', 'zh-CN': '方向 {direction} 的 {step}' },
  short: { 'pt-BR': '{step}', 'zh-CN': '{step}' },
};
const LISTS: Record<string, ListSpec> = {
  step: STEP,
  instead: STEP,
  where: {
    fields: ['op', 'op_text'],
    entry: { 'pt-BR': 'antes do op {op} ({op_text})', 'zh-CN': '在操作 {op}（{op_text}）之前' },
    short: { 'pt-BR': 'no fim do seu passo', 'zh-CN': '在其步骤结束时' },
  },
  comm_cycle: {
    fields: ['rank', 'where', 'step', 'peer'],
    split: '|',
    entry: {
      'pt-BR': 'o rank {rank} espera {where} por {step} (o rank {peer} não lançou o seu lado)',
      'zh-CN': 'rank {rank} {where}等待 {step}（rank {peer} 尚未发起其一侧）',
    },
  },
  cycle: {
    fields: ['rank', 'op', 'op_text', 'for_text', 'for_rank', 'for_op'],
    entry: {
      'pt-BR': 'o rank {rank} espera no op {op} ({op_text}) por {for_text} (rank {for_rank}, op {for_op})',
      'zh-CN': 'rank {rank} 在操作 {op}（{op_text}）处等待 {for_text}（rank {for_rank}，操作 {for_op}）',
    },
  },
  stuck: {
    fields: ['rank', 'op', 'op_text'],
    entry: { 'pt-BR': 'o rank {rank} espera no op {op} ({op_text})', 'zh-CN': 'rank {rank} 在操作 {op}（{op_text}）处等待' },
  },
};

/** Chinese characters, and the full-width punctuation and forms set among them. */
const WIDE = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
const HAN = /[\u3400-\u9fff]/;
const LATIN = /[A-Za-z0-9]/;

/**
 * `left` + `right` where a template's text meets a value put into it. zh-CN's typography decides
 * the gap there, since a value may begin or end with Chinese or with Latin (a step is "方向 1 的
 * 1SEND_B0" or just "1SEND_B0"): one space between a Chinese character and a Latin letter or digit,
 * none between Chinese text or next to full-width punctuation; anywhere else (a sign, a quote) the
 * template's own spacing. pt-BR keeps the template's spacing.
 */
function seam(language: Exclude<Lang, 'en'>, left: string, right: string): string {
  if (language !== 'zh-CN') return left + right;
  const l = left.trimEnd();
  const r = right.trimStart();
  const x = l.at(-1);
  const y = r[0];
  if (x === undefined || y === undefined) return left + right;
  if ((HAN.test(x) && LATIN.test(y)) || (LATIN.test(x) && HAN.test(y))) return `${l} ${r}`;
  const punctuation = (c: string) => WIDE.test(c) && !HAN.test(c);
  if ((WIDE.test(x) && WIDE.test(y)) || punctuation(x) || punctuation(y)) return l + r;
  return left + right;
}

/** `template` with each {name} replaced by `valueOf(name)` (kept as written when undefined), joined at seams. */
function fillTemplate(language: Exclude<Lang, 'en'>, template: string, valueOf: (name: string) => string | undefined): string {
  const pieces = template.split(/\{(\w+)\}/);
  let text = pieces[0]!;
  for (let i = 1; i < pieces.length; i += 2) {
    const value = valueOf(pieces[i]!);
    text = value === undefined ? `${text}{${pieces[i]}}` : seam(language, text, value);
    text = value === undefined ? text + pieces[i + 1]! : seam(language, text, pieces[i + 1]!);
  }
  return text;
}

/** Values given in parts under one rule's key only, where another rule's param of that name is a plain value. */
const KEYED_LISTS: Record<string, Record<string, ListSpec>> = {
  // A run's size as the op limit quotes it ("4096 ranks x 1024 micro-batches"), {field} worded by FIELDS.
  'size.ops': {
    size: {
      fields: ['count', 'field'],
      rest: true,
      entries: ' x ',
      join: { 'pt-BR': ' × ', 'zh-CN': ' × ' },
      entry: { 'pt-BR': '{count} {field}', 'zh-CN': '{field} {count}' },
    },
  },
};

/** A LISTS value worded entry by entry in `language`. */
function wordList(language: Exclude<Lang, 'en'>, name: string, value: string, list: ListSpec = LISTS[name]!): string {
  const separator = list.join?.[language] ?? (language === 'zh-CN' ? '；' : '; ');
  return value
    .split(list.entries ?? ';')
    .map((entry) => {
      const split = list.split ?? ' ';
      let parts = entry.split(split);
      if (list.rest) parts = [...parts.slice(0, list.fields.length - 1), parts.slice(list.fields.length - 1).join(split)];
      const template = parts.length < list.fields.length && list.short ? list.short[language] : list.entry[language];
      return fillTemplate(language, template, (field) => {
        const part = parts[list.fields.indexOf(field)];
        if (part === undefined) return undefined;
        if (field === 'field') return FIELDS[language][part] ?? part;
        return LISTS[field] && field !== name ? wordList(language, field, part) : part;
      });
    })
    .join(separator);
}

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
    // Per-stage costs and rank speeds (core/engine/src/inputs/stage_costs.cpp); the option names
    // (--stage-cost, --rank-speed) are the CLI's and the page's own words for them.
    'stage_cost.stage_range': 'o estágio {stage} de --stage-cost está fora do intervalo: há {stages} estágios (0 a {max}, ou first / last)',
    'stage_cost.table_length': '--stage-costs lista {listed} estágios, mas há {stages}',
    'stage_cost.model_stages': 'os estágios do modelo devem ser um número inteiro de 1 a {max}, recebeu {value}',
    'stage_cost.stages_listed': 'os custos por estágio listam {listed} estágios, mas o escalonamento tem {stages}',
    'stage_cost.syntax': "--stage-cost deve ser ESTÁGIO:CHAVE=VALOR,... (ESTÁGIO um índice, first ou last), recebeu '{value}'",
    'stage_cost.assignment': "--stage-cost '{value}' deve ser CHAVE=VALOR com CHAVE uma de F, B, W, FB, comm",
    'stage_cost.twice': 'o custo {cost} de --stage-cost aparece duas vezes',
    'stage_cost.not_number': "o custo {cost} de --stage-cost deve ser um número, recebeu '{value}'",
    'stage_cost.no_cost': "--stage-cost '{value}' não dá nenhum custo depois do estágio",
    'rank_speed.rank_range': 'o rank {rank} de --rank-speed está fora do intervalo: o {schedule} tem os ranks 0 a {max}',
    'rank_speed.ranks_listed': 'as velocidades listam {listed} ranks, mas o escalonamento tem {ranks}',
    'rank_speed.factor_range': 'o fator de --rank-speed do rank {rank} deve ser um número > 0 (de {min} a {max}), recebeu {value}',
    'rank_speed.syntax': "--rank-speed deve ser RANK:FATOR (0.5 = metade da velocidade), recebeu '{value}'",
    'rank_speed.factor': "o fator de --rank-speed do rank {rank} deve ser um número > 0, recebeu '{value}'",
    'stage_costs.not_json': '--stage-costs não é um JSON válido: espera-se uma lista como [{"F": 1, "B": 2}, ...]',
    'stage_costs.not_list': '--stage-costs deve ser uma lista JSON não vazia, com um objeto de custos por estágio',
    'stage_costs.entry_not_object': 'a entrada {entry} de --stage-costs deve ser um objeto de custos, recebeu {value}',
    'stage_costs.unknown_cost': "entrada {entry} de --stage-costs: custo desconhecido '{cost}'; os custos conhecidos são F, B, W, FB, comm",
    'stage_costs.twice': 'entrada {entry} de --stage-costs: o custo {cost} aparece duas vezes',
    'stage_costs.not_number': 'entrada {entry} de --stage-costs: o custo {cost} deve ser um número, recebeu {value}',
    // The cost text (core/engine/src/costs.cpp) and the module's cost arguments.
    'cost.not_number': "o custo {cost} deve ser um número, recebeu '{value}'",
    'cost.assignment': "o custo '{value}' deve ser CHAVE=VALOR com CHAVE uma de F, B, W, FB, comm",
    'cost.twice': 'o custo {cost} aparece duas vezes',
    'cost.unknown': "custo desconhecido '{cost}'; os custos conhecidos são F, B, W, FB, comm",
    'cost.finite': '{cost} deve ser um número finito, recebeu {value}',
    // Numbers read from text (core/engine/src/inputs/parse.cpp); {name} is the option or field.
    'number.whole_range': '{name} deve ser um número inteiro de {min} a {max}, recebeu {value}',
    'stage_cost.stage_whole': 'o estágio de --stage-cost deve ser um número inteiro de {min} a {max}, first ou last, recebeu {value}',
    'number.range': '{name} deve ser um número de {min} a {max}, recebeu {value}',
    'field.missing': 'falta {name}',
    'field.whole_range': '{name} deve ser um número inteiro de {min} a {max}',
    'workload.sizes_positive': 'tamanhos, larguras de banda e vazão da carga de trabalho devem ser > 0, recebeu {value}',
    'workload.counts_non_negative': 'as contagens da carga de trabalho devem ser >= 0, recebeu {value}',
    // Measured pipelines (core/frontend/src/measured.cpp, the course module).
    'measured.align': "{name} deve ser um de profiler|first-ops, recebeu '{value}'",
    'measured.too_many_traces': '{what} aceita no máximo {max} traces, um por rank',
    'measured.not_array': 'um pipeline medido precisa de um array de traces do profiler, um por rank',
    'language.unknown': "idioma desconhecido '{name}'; os idiomas são {known}",
    // Sweeps (core/engine/src/sweep.cpp, the engine module).
    'sweep.axis': "o eixo da varredura deve ser micro_batches ou ranks, recebeu '{value}'",
    'sweep.too_many_points': 'uma varredura tem no máximo {max} pontos (recebeu {value})',
    'sweep.too_much_work': 'uma varredura pode simular no máximo {max} ranks x micro-batches x estágios virtuais somando todos os seus pontos (recebeu {value})',
    'sweep.values': 'os valores da varredura devem ser um array de números inteiros como [16, 18, 20], recebeu {value}',
    'sweep.values_length': 'os valores da varredura devem ser um array de números inteiros como [16, 18, 20]; o seu comprimento é {value}',
    'export.too_large': 'a exportação {format} desta execução ocuparia {size}, acima dos {budget} que uma exportação pode ocupar na memória aqui; exporte uma execução menor ou use a CLI, que a grava em fluxo (pipesim simulate --format {format})',
    'export.unknown_format': "o formato de exportação deve ser um de {known}, recebeu '{value}'",
    // The module's arguments (wasm/bindings_common.h, run_request.h, bindings_engine.cpp).
    'arg.string': '{name} deve ser um texto, recebeu {value}',
    'arg.number': '{name} deve ser um número, recebeu {value}',
    'arg.too_long': '{name} pode ter no máximo {max} MiB (recebeu {value} caracteres)',
    'arg.string_array': '{name} deve ser um array de textos, recebeu {value}',
    'arg.too_many_entries': '{name} lista mais entradas do que uma execução tem estágios ou ranks',
    'request.not_object': "um pedido deve ser um objeto como {schedule: '{schedule}', ranks: {ranks}, microBatches: {micro_batches}}",
    'request.full_report_in_node': "o relatório completo de simulateJson (detail 'json') está na versão para Node; no navegador, peça exportText(request, 'json') ao módulo do curso",
    'request.overlap_not_object': "um pedido de sobreposição deve ser um objeto como {ratio: '1:1', commSms: 20}",
    'size.field': "o campo de tamanho deve ser um de ranks|microBatches|virtualStages, recebeu '{value}'",
    // The chunk model's components and ratio (core/course/src/overlap.cpp); {which} is worded by SIDES.
    'component.assignment': "o componente {which} '{value}' deve ser NOME=VALOR com NOME um de {names}",
    'component.unknown': "componente {which} desconhecido '{name}'; os componentes {which} são {names}",
    'component.twice': 'o componente {which} {name} aparece duas vezes',
    'component.number': "o componente {which} {name} deve ser um número >= 0, recebeu '{value}'",
    'component.missing': 'falta o componente {which} {name}; informe todos de {names}',
    'ratio.finite': 'a razão cálculo:comunicação deve ser um número finito > 0, recebeu {value}',
    'ratio.no_all_to_all': 'não dá para ajustar a comunicação a uma razão cálculo:comunicação: toda duração de all-to-all é 0',
    'ratio.no_compute': 'não dá para ajustar a comunicação a uma razão cálculo:comunicação: toda duração de cálculo é 0',
    'chunk.duration': 'a duração de {name} deve ser um número finito >= 0, recebeu {value}',
    'chunk.cost_range': 'o modelo do chunk dá {cost} = {value}, que nenhum custo de pipeline pode ser: custos são 0 ou ficam entre {min} e {max}',
    'chunk.no_work': 'o modelo do chunk dá F = B = 0: um chunk sem cálculo e sem comunicação não tem o que sobrepor nem custo para dar a um pipeline',
    'lesson.memory_positive': 'bytes por parâmetro e memória da GPU devem ser números positivos',
    'lesson.exercise': '--exercise deve ser 1, 2, 3 ou 4, recebeu {value}',
    // The course module's own arguments (wasm/bindings_course.cpp) and the plan search's lists.
    'quiz.seed': 'a semente deve ser um número inteiro de 0 a 2^53',
    'quiz.set': "conjunto de quiz desconhecido '{value}'; os conjuntos são bank, live",
    'search.list': 'busca de planos: {name} deve ser uma lista de números inteiros, recebeu {value}',
    'search.list_length': 'busca de planos: {name} pode listar no máximo {max} valores',
    'search.list_item': 'busca de planos: {name} deve listar números inteiros, recebeu {value}',
    'search.range': 'busca de planos: {name} deve listar números inteiros de {min} a {max}, recebeu {value}',
    'search.not_begun': 'nenhuma busca de planos em andamento: chame planSearchBegin primeiro',
    'request.model_run_not_object': 'uma execução de modelo deve ser um objeto {schedule, model}: model é o texto JSON de um arquivo do planejador',
    'plan.params_below_experts': 'entrada do planejador: model.params_b ({params}) é menor que só os experts roteados ({routed}B = camadas MoE x experts x 3 x hidden x expert_hidden)',
    // A PyTorch profiler trace (core/io/src/profile_trace.cpp), a measured pipeline's op names and
    // traces (core/io/src/measured_pipeline.cpp), one F&B pair's trace (core/course/src/measured_chunk.cpp).
    'profile_trace.not_json': 'o trace do profiler não é um JSON válido (byte {byte})',
    'profile_trace.truncated': 'o trace do profiler não é um JSON válido (byte {byte}, o fim do arquivo: ele está truncado?)',
    'profile_trace.event_time': 'traceEvents[{index}]: um evento {category} precisa de ts, um número finito, e dur, um número finito >= 0',
    'profile_trace.too_many_events': 'um trace do profiler pode ter no máximo {max} eventos (entradas de traceEvents)',
    'profile_trace.too_large': 'um trace do profiler pode ter no máximo {max} MiB (recebeu {value} MiB)',
    'profile_trace.top_array': 'não é um trace do profiler: o JSON é um array; um trace do profiler do PyTorch é um objeto JSON com um array traceEvents (torch.profiler export_chrome_trace)',
    'profile_trace.pipesim_export': 'este é um trace do Chrome que o pipesim gravou, não um trace do profiler do PyTorch: leia-o com `pipesim simulate --schedule-file`',
    'profile_trace.events_not_array': 'não é um trace do profiler: traceEvents não é um array; um trace do profiler do PyTorch é um objeto JSON com um array traceEvents (torch.profiler export_chrome_trace)',
    'profile_trace.no_events': 'não é um trace do profiler: não há traceEvents; um trace do profiler do PyTorch é um objeto JSON com um array traceEvents (torch.profiler export_chrome_trace)',
    'profile_trace.no_profiler_marks': 'não é um trace do profiler do PyTorch: não há schemaVersion, distributedInfo nem deviceProperties, nem evento do profiler (cat kernel, cuda_runtime, user_annotation, cpu_op)',
    'op_names.not_json': 'os nomes das ops devem ser um objeto JSON como {"F": "fwd s(\\\\d+) mb(\\\\d+)"}',
    'op_names.not_object': 'os nomes das ops devem ser um objeto JSON com pelo menos uma das chaves F, B, I, W',
    'op_names.unknown_kind': "tipo de op desconhecido '{name}' nos nomes das ops; os tipos são F, B, I, W",
    'op_names.not_string': 'nomes das ops: {kind} deve ser uma expressão regular num texto',
    'op_names.bad_regex': 'nomes das ops: {kind} não é uma expressão regular válida',
    'op_names.groups': 'nomes das ops: {kind} precisa de dois grupos, o estágio e depois o micro-batch, p. ex. "s(\\\\d+) mb(\\\\d+)"',
    'measured.no_traces': 'um pipeline medido precisa de um trace do profiler por rank e não recebeu nenhum',
    'measured.no_pipelining_ops': 'o trace {trace} (rank {rank} do pipeline) não tem nenhuma op do pipeline: esperavam-se nomes de record_function como PP:0F0, PP:1I3, PP:2W0, PP:0B1 (torch.distributed.pipelining)',
    'measured.no_named_ops': 'o trace {trace} (rank {rank} do pipeline) não tem nenhuma op do pipeline: nenhuma anotação casa com os nomes das ops informados',
    'chunk_trace.no_kernels': 'o trace do profiler não tem kernels de GPU (cat "kernel"): use o profiler com activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]',
    'chunk_trace.no_component_kernel': 'nenhum kernel do trace rodou sob uma anotação que nomeie um componente do par; envolva cada componente em torch.profiler.record_function com um de: {names}',
    // A model file's stages (core/course/src/model_stages.cpp) and the trace's time scale (core/io/src/export_trace.cpp).
    'model.nothing_for_layers': 'arquivo do modelo: {name} ({given}B) não deixa nada para as camadas depois de tirar os embeddings (2 x vocab x hidden = {embeddings}B)',
    'model.fewer_layers_than_stages': 'arquivo do modelo: model.layers ({layers}) é menor que os {stages} estágios do escalonamento: cada estágio precisa de uma camada (menos ranks, ou um escalonamento com menos estágios por rank)',
    'model.schedule_ranks': 'o arquivo do escalonamento tem {ranks} ranks, mas o model.pp do arquivo do modelo é {pp}',
    'model.ranks_range': '{field} deve ir de 1 a {max} com um arquivo de modelo, os tamanhos de pipeline que o seu model.pp pode ter (recebeu {value})',
    'model.ranks_divide_gpus': '{field} {ranks} não divide o cluster.gpus do arquivo do modelo ({gpus}): cada estágio do pipeline precisa de tantas GPUs quanto os outros',
    'model.ranks_split_ep': '{field} {ranks} deixa {per_stage} GPUs para cada estágio do pipeline (cluster.gpus / {field}), que o model.ep do arquivo do modelo ({ep}) não divide',
    'layers_per_stage.count': '--layers-per-stage lista {listed} estágios, mas o escalonamento tem {stages}',
    'layers_per_stage.sum': '--layers-per-stage soma {sum} camadas, mas o model.layers do arquivo do modelo é {layers}',
    'layers_per_stage.middle_empty': '--layers-per-stage não dá camadas ao estágio {stage}: só o primeiro e o último estágio, que guardam os embeddings, podem ficar sem nenhuma',
    'layers_per_stage.end_empty': '--layers-per-stage não dá camadas ao estágio {stage}, e o modelo não tem embeddings (model.vocab é 0): o estágio não faria trabalho algum',
    'trace.us_per_unit': 'os microssegundos por unidade de custo do trace devem ser um número finito > 0, recebeu {value}',
    // The custom schedule import (core/engine/src/inputs/custom.cpp, trace_import.cpp, schedules/custom.cpp);
    // the place (a line and token, a rank and op) is worded by PLACES.
    'custom.too_many_ranks': 'um escalonamento personalizado pode ter no máximo {max} ranks',
    'custom.too_many_comm': 'um escalonamento personalizado pode ter no máximo {max} ações de envio e recebimento',
    'custom.too_many_ops': 'um escalonamento personalizado pode ter no máximo {max} ops, o limite de uma execução',
    'custom.stage_two_ranks': 'o estágio {stage} já roda no rank {rank}; um estágio vive em um só rank',
    'custom.stage_two_ranks_direction': 'o estágio {stage} da direção {direction} já roda no rank {rank}; um estágio vive em um só rank',
    'custom.no_rank': 'um escalonamento personalizado precisa de pelo menos um rank',
    'custom.no_op': 'um escalonamento personalizado precisa de pelo menos um op',
    'custom.stage_unowned': 'nenhum rank roda o estágio {stage}; os estágios são numerados de 0 a {max} sem lacunas',
    'custom.stage_unowned_direction': 'nenhum rank roda o estágio {stage} da direção {direction}; os estágios são numerados de 0 a {max} sem lacunas',
    'custom.micro_batches': 'um escalonamento personalizado precisa de 1 a {max} micro-batches por direção (recebeu {value})',
    'custom.action_syntax': 'esperava-se {estágio}{F|I|W|B}{micro-batch}, por exemplo 0F1',
    'custom.overlap_syntax': 'esperava-se (sF m;sB m)OVERLAP_F_B, um forward F e um backward completo B',
    'custom.unclosed_paren': "o '(' nunca é fechado",
    'custom.rank_stages': 'o rank {rank} tem {held} estágios; um rank pode ter no máximo {max} estágios',
    'custom.phase_mismatch': 'a fase {phase} não corresponde ao estágio {stage}, que é o número {index} dos estágios que o rank {rank} tem (em um caminho, a fase é esse número)',
    'custom.op_not_object': 'um op é um objeto com "op": "F", "B", "I", "W" ou "FB"',
    'custom.unknown_op': "op desconhecido '{name}'; os ops são F, B, I, W e FB",
    'custom.trace_malformed': 'o trace do pipesim está malformado: {reason}',
    'custom.json_parse': 'o JSON do escalonamento não é válido (linha {line}, coluna {column}): {reason}',
    'custom.json_not_object': 'JSON do escalonamento: espera-se um objeto com micro_batches e per_rank',
    'custom.micro_batches_even': 'JSON do escalonamento: micro_batches conta as duas direções, então deve ser par quando directions é 2 (recebeu {value})',
    'custom.per_rank_array': "JSON do escalonamento: 'per_rank' deve ser um array com uma entrada por rank",
    'custom.too_many_ranks_listed': 'um escalonamento personalizado pode ter no máximo {max} ranks (recebeu {value})',
    'custom.ranks_mismatch': "JSON do escalonamento: 'ranks' diz {ranks}, mas per_rank lista {listed}",
    'custom.ops_missing': "falta 'ops' (uma exportação --format summary não tem ops; use --format json)",
    'custom.empty': 'o escalonamento personalizado está vazio; informe JSON como `simulate --format json` o escreve, ou ações do PyTorch como 0F0,0B0',
    'custom.json_array': 'um array JSON (um trace do Chrome em forma de array?) não é um escalonamento; informe um trace de `simulate --format chrome-trace`, JSON como `simulate --format json` o escreve, ou ações do PyTorch como 0F0,0B0',
    'custom.needs_text': 'custom precisa do escalonamento como texto (--schedule-file CAMINHO): JSON como `simulate --format json` o escreve, ou ações do PyTorch como 0F0,0B0',
    'trace_import.kind': 'args.kind deve ser "F", "B", "I", "W" ou "FB"',
    'trace_import.pid': 'pid deve ser o id de processo de um rank, rank + 1, de {min} a {max}',
    'trace_import.ts': 'ts deve ser um número',
    'trace_import.args': 'um evento de cálculo precisa do seu objeto args',
    'trace_import.not_ours': 'este trace do Chrome não foi escrito pelo pipesim (otherData.generator não é "pipesim"); o pipesim só lê de volta traces de `simulate --format chrome-trace`',
    'trace_import.events_array': 'trace do pipesim: traceEvents deve ser um array de eventos',
    'trace_import.event_not_object': 'trace do pipesim: traceEvents[{event}] não é um objeto; todo evento é um',
    // A schedule's shape and ops against the engine's rules (core/engine/src/detail/chunk_index.cpp).
    'shape.no_rank': 'um escalonamento precisa de pelo menos 1 rank',
    'shape.ranks_mismatch': 'o escalonamento lista {listed} ranks, mas declara {ranks}',
    'shape.rank_ranges': 'o rank_begin do escalonamento não divide as suas {ops} ops em um intervalo por rank',
    'shape.layout': 'o layout do escalonamento não põe cada estágio em um rank',
    'shape.layout_rank': 'o layout do escalonamento põe um estágio no rank {rank}, fora de 0..{max}',
    'shape.too_large_to_index': 'um escalonamento de {ops} ops sobre {chunks} chunks é mais do que o pipesim consegue indexar (no máximo {max} de cada)',
    'op.phase_direction': 'a fase deve ser 0 ou 1 (a direção) em um escalonamento de duas direções',
    'op.phase_negative': 'a fase deve ser >= 0',
    'op.mb_range': 'o micro-batch {mb} está fora de 0..{max}',
    'op.stage_range': 'o estágio {stage} está fora de 0..{max}',
    'op.stage_owner': 'o estágio {stage} vive no rank {owner}, não no rank {rank}',
    'op.pair_same_chunk': 'um par sobreposto precisa de dois chunks diferentes',
    'op.forward_twice': 'o forward {forward} roda duas vezes',
    'op.backward_twice': 'o backward deste chunk roda duas vezes',
    'op.backward_before_forward': 'um backward roda antes do forward do seu chunk neste rank',
    'op.w_before_i': 'o W deve vir depois do I do mesmo chunk neste rank',
    'op.w_twice': 'o W roda duas vezes para este chunk',
    'op.breaks_rule': 'quebra uma regra do engine',
    'missing.forward': 'não há forward para o micro-batch {mb} no estágio {stage} (rank {rank})',
    'missing.forward_direction': 'não há forward para o micro-batch {mb} da direção {direction} no estágio {stage} (rank {rank})',
    'missing.backward': 'não há backward para o micro-batch {mb} no estágio {stage} (rank {rank})',
    'missing.backward_direction': 'não há backward para o micro-batch {mb} da direção {direction} no estágio {stage} (rank {rank})',
    'missing.weight': 'I sem o seu W para o micro-batch {mb} no estágio {stage} (rank {rank})',
    'missing.weight_direction': 'I sem o seu W para o micro-batch {mb} da direção {direction} no estágio {stage} (rank {rank})',
    // Deadlocks, as the cycle or the waiting ranks the engine found ({cycle}, {stuck}: worded by LISTS).
    'deadlock.cycle': 'deadlock: {cycle}; nenhum op deste ciclo pode começar',
    'deadlock.cycle_more': 'deadlock: {cycle}; e mais {more} ranks do ciclo; nenhum op deste ciclo pode começar',
    'deadlock.lowering': 'a tradução dos envios e recebimentos do torch não consegue colocar nenhum próximo op ("Malformed compute schedule"): {stuck}',
    // The reference timing's words (core/engine/src/reference/reference.cpp); {name} is the option or field.
    'timing.unknown': "{name} deve ser dataflow ou reference (recebeu '{value}')",
    'sends.unknown': "{name} deve ser rendezvous, eager ou async (recebeu '{value}')",
    'sends.only_reference': '{sends} só se aplica a {reference}',
    // The reference timing's communication programs and deadlocks (core/engine/src/reference/reference.cpp);
    // the rank is the place (PLACES' comm_rank), {step} and {where} are worded by LISTS.
    'comm.fewer_steps': 'tem menos passos de cálculo do que ops: o op {op} ({op_text}) nunca roda',
    'comm.never_launched': 'enfileira {step} e nunca o lança',
    'comm.chunk_not_here': '{action} nomeia um chunk (micro-batch {mb}, estágio {stage}) cujo estágio não está neste rank',
    'comm.no_previous': '{action} no estágio {stage}, que não tem estágio anterior',
    'comm.no_next': '{action} no estágio {stage}, que não tem próximo estágio',
    'comm.to_itself': '{action} do estágio {stage} para este mesmo rank: um estágio vizinho de outro no mesmo rank é passado localmente',
    'comm.send_before_compute': 'enfileira {step} antes de calcular o que ele envia',
    'comm.sends_twice': 'envia {step} duas vezes',
    'comm.receives_twice': 'recebe {step} duas vezes',
    'comm.order_step': 'espera {step} do rank {sender}, mas o próximo envio lançado nesse enlace é {instead}: envios e recebimentos de um enlace devem vir na mesma ordem',
    'comm.order_number': 'espera {step} do rank {sender}, mas o próximo envio lançado nesse enlace é o envio número {number} do rank {sender} para ele: envios e recebimentos de um enlace devem vir na mesma ordem',
    'comm.unlaunched_gradient': 'roda o op {op} ({op_text}) sem antes lançar o recebimento do gradiente da sua saída vindo do rank {from}',
    'comm.unlaunched_forward': 'roda o op {op} ({op_text}) sem antes lançar o recebimento da entrada do seu forward vinda do rank {from}',
    'comm.more_steps': 'tem mais passos de cálculo do que ops',
    'deadlock.own_input': 'deadlock: o rank {rank} espera {where} por uma entrada que um op posterior dele mesmo produz',
    'deadlock.never_matched_wait': 'deadlock na comunicação de referência: o rank {rank} espera {where} por {step}, que o rank {peer} nunca corresponde; nenhum rank pode continuar',
    'deadlock.comm_cycle': 'deadlock na comunicação de referência: {comm_cycle}; nenhum rank deste ciclo pode continuar',
    'deadlock.never_matched': 'deadlock na comunicação de referência: o {step} do rank {rank} nunca é correspondido pelo rank {peer}',
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
    // Per-stage costs and rank speeds (core/engine/src/inputs/stage_costs.cpp).
    'stage_cost.stage_range': '--stage-cost 的阶段 {stage} 超出范围：共有 {stages} 个阶段（0 到 {max}，或 first / last）',
    'stage_cost.table_length': '--stage-costs 列出了 {listed} 个阶段，但共有 {stages} 个',
    'stage_cost.model_stages': '模型阶段数必须是 1 到 {max} 的整数，收到 {value}',
    'stage_cost.stages_listed': '分阶段成本列出了 {listed} 个阶段，但调度有 {stages} 个',
    'stage_cost.syntax': "--stage-cost 必须是“阶段:键=值,...”的形式（阶段为索引、first 或 last），收到 '{value}'",
    'stage_cost.assignment': "--stage-cost '{value}' 必须是“键=值”的形式，键为 F、B、W、FB、comm 之一",
    'stage_cost.twice': '--stage-cost 的成本 {cost} 给出了两次',
    'stage_cost.not_number': "--stage-cost 的成本 {cost} 必须是数，收到 '{value}'",
    'stage_cost.no_cost': "--stage-cost '{value}' 在阶段之后没有给出任何成本",
    'rank_speed.rank_range': '--rank-speed 的 rank {rank} 超出范围：{schedule} 的 rank 为 0 到 {max}',
    'rank_speed.ranks_listed': '速度列出了 {listed} 个 rank，但调度有 {ranks} 个',
    'rank_speed.factor_range': 'rank {rank} 的 --rank-speed 系数必须是 > 0 的数（{min} 到 {max}），收到 {value}',
    'rank_speed.syntax': "--rank-speed 必须是 RANK:系数（0.5 = 半速），收到 '{value}'",
    'rank_speed.factor': "rank {rank} 的 --rank-speed 系数必须是 > 0 的数，收到 '{value}'",
    'stage_costs.not_json': '--stage-costs 不是有效的 JSON：应为形如 [{"F": 1, "B": 2}, ...] 的列表',
    'stage_costs.not_list': '--stage-costs 必须是非空的 JSON 列表，每个阶段一个成本对象',
    'stage_costs.entry_not_object': '--stage-costs 的第 {entry} 项必须是成本对象，收到 {value}',
    'stage_costs.unknown_cost': "--stage-costs 的第 {entry} 项：未知的成本 '{cost}'；已知的成本有 F、B、W、FB、comm",
    'stage_costs.twice': '--stage-costs 的第 {entry} 项：成本 {cost} 给出了两次',
    'stage_costs.not_number': '--stage-costs 的第 {entry} 项：成本 {cost} 必须是数，收到 {value}',
    // The cost text (core/engine/src/costs.cpp) and the module's cost arguments.
    'cost.not_number': "成本 {cost} 必须是数，收到 '{value}'",
    'cost.assignment': "成本 '{value}' 必须是“键=值”的形式，键为 F、B、W、FB、comm 之一",
    'cost.twice': '成本 {cost} 给出了两次',
    'cost.unknown': "未知的成本 '{cost}'；已知的成本有 F、B、W、FB、comm",
    'cost.finite': '{cost} 必须是有限数，收到 {value}',
    // Numbers read from text (core/engine/src/inputs/parse.cpp).
    'number.whole_range': '{name} 必须是 {min} 到 {max} 的整数，收到 {value}',
    'stage_cost.stage_whole': '--stage-cost 的阶段必须是 {min} 到 {max} 的整数、first 或 last，收到 {value}',
    'number.range': '{name} 必须是 {min} 到 {max} 的数，收到 {value}',
    'field.missing': '缺少 {name}',
    'field.whole_range': '{name} 必须是 {min} 到 {max} 的整数',
    'workload.sizes_positive': '工作负载的规模、带宽和吞吐量必须 > 0，收到 {value}',
    'workload.counts_non_negative': '工作负载的计数必须 >= 0，收到 {value}',
    // Measured pipelines (core/frontend/src/measured.cpp, the course module).
    'measured.align': "{name} 必须是 profiler|first-ops 之一，收到 '{value}'",
    'measured.too_many_traces': '{what}最多接受 {max} 个 trace，每个 rank 一个',
    'measured.not_array': '实测流水线需要一个 profiler trace 数组，每个 rank 一个',
    'language.unknown': "未知的语言 '{name}'；可用的语言有 {known}",
    // Sweeps (core/engine/src/sweep.cpp, the engine module).
    'sweep.axis': "扫描轴必须是 micro_batches 或 ranks，收到 '{value}'",
    'sweep.too_many_points': '一次扫描最多 {max} 个点（收到 {value}）',
    'sweep.too_much_work': '一次扫描的所有点合计最多模拟 {max} 个 rank × 微批次 × 虚拟阶段（收到 {value}）',
    'sweep.values': '扫描值必须是整数数组，如 [16, 18, 20]，收到 {value}',
    'sweep.values_length': '扫描值必须是整数数组，如 [16, 18, 20]；其长度为 {value}',
    'export.too_large': '此次运行的 {format} 导出将占用 {size}，超过此处一次导出可在内存中占用的 {budget}；请导出更小的运行，或使用以流式写出的 CLI（pipesim simulate --format {format}）',
    'export.unknown_format': "导出格式必须是 {known} 之一，收到 '{value}'",
    // The module's arguments (wasm/bindings_common.h, run_request.h, bindings_engine.cpp).
    'arg.string': '{name} 必须是字符串，收到 {value}',
    'arg.number': '{name} 必须是数，收到 {value}',
    'arg.too_long': '{name} 最多 {max} MiB（收到 {value} 个字符）',
    'arg.string_array': '{name} 必须是字符串数组，收到 {value}',
    'arg.too_many_entries': '{name} 列出的条目多于一次运行的阶段数或 rank 数',
    'request.not_object': "请求必须是形如 {schedule: '{schedule}', ranks: {ranks}, microBatches: {micro_batches}} 的对象",
    'request.full_report_in_node': "simulateJson 的完整报告（detail 'json'）在 Node 版本中；在浏览器中请向课程模块调用 exportText(request, 'json')",
    'request.overlap_not_object': "重叠请求必须是形如 {ratio: '1:1', commSms: 20} 的对象",
    'size.field': "规模字段必须是 ranks|microBatches|virtualStages 之一，收到 '{value}'",
    // The chunk model's components and ratio (core/course/src/overlap.cpp); {which} is worded by SIDES.
    'component.assignment': "{which}组件 '{value}' 必须是“名称=值”的形式，名称为 {names} 之一",
    'component.unknown': "未知的{which}组件 '{name}'；{which}组件有 {names}",
    'component.twice': '{which}组件 {name} 给出了两次',
    'component.number': "{which}组件 {name} 必须是 >= 0 的数，收到 '{value}'",
    'component.missing': '缺少{which}组件 {name}；请给出全部 {names}',
    'ratio.finite': '计算:通信比必须是 > 0 的有限数，收到 {value}',
    'ratio.no_all_to_all': '无法按计算:通信比缩放通信：所有 all-to-all 的时长都为 0',
    'ratio.no_compute': '无法按计算:通信比缩放通信：所有计算的时长都为 0',
    'chunk.duration': '{name} 的时长必须是 >= 0 的有限数，收到 {value}',
    'chunk.cost_range': '块模型给出 {cost} = {value}，这不可能是流水线成本：成本为 0 或介于 {min} 与 {max} 之间',
    'chunk.no_work': '块模型给出 F = B = 0：既无计算也无通信的块没有可重叠的内容，也无法给流水线提供成本',
    'lesson.memory_positive': '每个参数的字节数和 GPU 显存必须是正数',
    'lesson.exercise': '--exercise 必须是 1、2、3 或 4，收到 {value}',
    // The course module's own arguments (wasm/bindings_course.cpp) and the plan search's lists.
    'quiz.seed': '种子必须是 0 到 2^53 的整数',
    'quiz.set': "未知的测验集 '{value}'；测验集有 bank、live",
    'search.list': '方案搜索：{name} 必须是整数列表，收到 {value}',
    'search.list_length': '方案搜索：{name} 最多列出 {max} 个值',
    'search.list_item': '方案搜索：{name} 必须只列出整数，收到 {value}',
    'search.range': '方案搜索：{name} 必须列出 {min} 到 {max} 的整数，收到 {value}',
    'search.not_begun': '没有进行中的方案搜索：请先调用 planSearchBegin',
    'request.model_run_not_object': '模型运行必须是对象 {schedule, model}：model 是规划器文件的 JSON 文本',
    'plan.params_below_experts': '规划器输入：model.params_b（{params}）小于仅路由专家的参数量（{routed}B = MoE 层数 x 专家数 x 3 x hidden x expert_hidden）',
    // A PyTorch profiler trace (core/io/src/profile_trace.cpp), a measured pipeline's op names and
    // traces (core/io/src/measured_pipeline.cpp), one F&B pair's trace (core/course/src/measured_chunk.cpp).
    'profile_trace.not_json': 'profiler trace 不是有效的 JSON（第 {byte} 字节）',
    'profile_trace.truncated': 'profiler trace 不是有效的 JSON（第 {byte} 字节，即文件末尾：文件是否被截断？）',
    'profile_trace.event_time': 'traceEvents[{index}]：{category} 事件需要有限数 ts 和 >= 0 的有限数 dur',
    'profile_trace.too_many_events': 'profiler trace 最多包含 {max} 个事件（traceEvents 条目）',
    'profile_trace.too_large': 'profiler trace 最多为 {max} MiB（收到 {value} MiB）',
    'profile_trace.top_array': '不是 profiler trace：该 JSON 是数组；PyTorch profiler trace 是带有 traceEvents 数组的 JSON 对象（torch.profiler export_chrome_trace）',
    'profile_trace.pipesim_export': '这是 pipesim 写出的 Chrome trace，不是 PyTorch profiler trace：请用 `pipesim simulate --schedule-file` 读取',
    'profile_trace.events_not_array': '不是 profiler trace：traceEvents 不是数组；PyTorch profiler trace 是带有 traceEvents 数组的 JSON 对象（torch.profiler export_chrome_trace）',
    'profile_trace.no_events': '不是 profiler trace：没有 traceEvents；PyTorch profiler trace 是带有 traceEvents 数组的 JSON 对象（torch.profiler export_chrome_trace）',
    'profile_trace.no_profiler_marks': '不是 PyTorch profiler trace：没有 schemaVersion、distributedInfo 或 deviceProperties，也没有 profiler 事件（cat kernel、cuda_runtime、user_annotation、cpu_op）',
    'op_names.not_json': '操作名称必须是 JSON 对象，如 {"F": "fwd s(\\\\d+) mb(\\\\d+)"}',
    'op_names.not_object': '操作名称必须是至少包含 F、B、I、W 之一作为键的 JSON 对象',
    'op_names.unknown_kind': "操作名称中有未知的操作类型 '{name}'；类型有 F、B、I、W",
    'op_names.not_string': '操作名称：{kind} 必须是写在字符串中的正则表达式',
    'op_names.bad_regex': '操作名称：{kind} 不是有效的正则表达式',
    'op_names.groups': '操作名称：{kind} 需要两个分组，先是阶段，再是微批次，如 "s(\\\\d+) mb(\\\\d+)"',
    'measured.no_traces': '实测流水线需要每个 rank 一个 profiler trace，收到 0 个',
    'measured.no_pipelining_ops': 'trace {trace}（流水线 rank {rank}）没有流水线操作：应有 PP:0F0、PP:1I3、PP:2W0、PP:0B1 这样的 record_function 名称（torch.distributed.pipelining）',
    'measured.no_named_ops': 'trace {trace}（流水线 rank {rank}）没有流水线操作：没有注解与给出的操作名称匹配',
    'chunk_trace.no_kernels': 'profiler trace 中没有 GPU kernel（cat "kernel"）：请以 activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA] 进行 profile',
    'chunk_trace.no_component_kernel': 'trace 中没有 kernel 运行在命名该对组件的注解之下；请用 torch.profiler.record_function 包住每个组件，名称为以下之一：{names}',
    // A model file's stages (core/course/src/model_stages.cpp) and the trace's time scale (core/io/src/export_trace.cpp).
    'model.nothing_for_layers': '模型文件：{name}（{given}B）去掉嵌入（2 x vocab x hidden = {embeddings}B）后没有留给各层的参数',
    'model.fewer_layers_than_stages': '模型文件：model.layers（{layers}）少于调度的 {stages} 个阶段：每个阶段都需要一层（减少 rank 数，或选每个 rank 阶段更少的调度）',
    'model.schedule_ranks': '调度文件有 {ranks} 个 rank，但模型文件的 model.pp 为 {pp}',
    'model.ranks_range': '使用模型文件时 {field} 必须在 1 到 {max} 之间，即其 model.pp 可取的流水线规模（收到 {value}）',
    'model.ranks_divide_gpus': '{field} {ranks} 不能整除模型文件的 cluster.gpus（{gpus}）：每个流水线阶段需要同样多的 GPU',
    'model.ranks_split_ep': '{field} {ranks} 使每个流水线阶段有 {per_stage} 个 GPU（cluster.gpus / {field}），模型文件的 model.ep（{ep}）不能整除它',
    'layers_per_stage.count': '--layers-per-stage 列出了 {listed} 个阶段，但调度有 {stages} 个',
    'layers_per_stage.sum': '--layers-per-stage 合计 {sum} 层，但模型文件的 model.layers 为 {layers}',
    'layers_per_stage.middle_empty': '--layers-per-stage 没有给阶段 {stage} 分配层：只有持有嵌入的第一个和最后一个阶段可以没有层',
    'layers_per_stage.end_empty': '--layers-per-stage 没有给阶段 {stage} 分配层，而模型没有嵌入（model.vocab 为 0）：该阶段将没有任何计算',
    'trace.us_per_unit': 'trace 的每成本单位微秒数必须是 > 0 的有限数，收到 {value}',
    // The custom schedule import (core/engine/src/inputs/custom.cpp, trace_import.cpp, schedules/custom.cpp).
    'custom.too_many_ranks': '自定义调度最多可有 {max} 个 rank',
    'custom.too_many_comm': '自定义调度最多可有 {max} 个发送和接收动作',
    'custom.too_many_ops': '自定义调度最多可有 {max} 个操作，这是单次运行的上限',
    'custom.stage_two_ranks': '阶段 {stage} 已在 rank {rank} 上运行；一个阶段只位于一个 rank 上',
    'custom.stage_two_ranks_direction': '方向 {direction} 的阶段 {stage} 已在 rank {rank} 上运行；一个阶段只位于一个 rank 上',
    'custom.no_rank': '自定义调度至少需要一个 rank',
    'custom.no_op': '自定义调度至少需要一个操作',
    'custom.stage_unowned': '没有 rank 运行阶段 {stage}；阶段编号为 0 .. {max}，中间不能有空缺',
    'custom.stage_unowned_direction': '没有 rank 运行方向 {direction} 的阶段 {stage}；阶段编号为 0 .. {max}，中间不能有空缺',
    'custom.micro_batches': '自定义调度每个方向需要 1 到 {max} 个微批次（收到 {value}）',
    'custom.action_syntax': '应为 {阶段}{F|I|W|B}{微批次}，例如 0F1',
    'custom.overlap_syntax': '应为 (sF m;sB m)OVERLAP_F_B，即一个前向 F 和一个完整反向 B',
    'custom.unclosed_paren': "'(' 没有闭合",
    'custom.rank_stages': 'rank {rank} 持有 {held} 个阶段；一个 rank 最多可持有 {max} 个阶段',
    'custom.phase_mismatch': 'phase {phase} 与阶段 {stage} 不符：该阶段在 rank {rank} 所持阶段中的编号为 {index}（同一路径上 phase 就是这个编号）',
    'custom.op_not_object': '操作是带有 "op": "F"、"B"、"I"、"W" 或 "FB" 的对象',
    'custom.unknown_op': "未知的操作 '{name}'；操作有 F、B、I、W 和 FB",
    'custom.trace_malformed': 'pipesim trace 格式错误：{reason}',
    'custom.json_parse': '调度 JSON 无法解析（第 {line} 行，第 {column} 列）：{reason}',
    'custom.json_not_object': '调度 JSON：应为包含 micro_batches 和 per_rank 的对象',
    'custom.micro_batches_even': '调度 JSON：micro_batches 计入两个方向，因此 directions 为 2 时必须是偶数（收到 {value}）',
    'custom.per_rank_array': "调度 JSON：'per_rank' 必须是数组，每个 rank 一项",
    'custom.too_many_ranks_listed': '自定义调度最多可有 {max} 个 rank（收到 {value}）',
    'custom.ranks_mismatch': "调度 JSON：'ranks' 为 {ranks}，但 per_rank 列出了 {listed} 个",
    'custom.ops_missing': "缺少 'ops'（--format summary 导出不含操作；请使用 --format json）",
    'custom.empty': '自定义调度为空；请给出 `simulate --format json` 所写的 JSON，或 0F0,0B0 这样的 PyTorch 动作',
    'custom.json_array': 'JSON 数组（数组形式的 Chrome trace？）不是调度；请给出 `simulate --format chrome-trace` 的 trace、`simulate --format json` 所写的 JSON，或 0F0,0B0 这样的 PyTorch 动作',
    'custom.needs_text': 'custom 需要以文本给出调度（--schedule-file 路径）：`simulate --format json` 所写的 JSON，或 0F0,0B0 这样的 PyTorch 动作',
    'trace_import.kind': 'args.kind 必须是 "F"、"B"、"I"、"W" 或 "FB"',
    'trace_import.pid': 'pid 必须是某个 rank 的进程 id，即 rank + 1，从 {min} 到 {max}',
    'trace_import.ts': 'ts 必须是数',
    'trace_import.args': '计算事件需要其 args 对象',
    'trace_import.not_ours': '此 Chrome trace 不是 pipesim 写的（otherData.generator 不是 "pipesim"）；pipesim 只读回 `simulate --format chrome-trace` 生成的 trace',
    'trace_import.events_array': 'pipesim trace：traceEvents 必须是事件数组',
    'trace_import.event_not_object': 'pipesim trace：traceEvents[{event}] 不是对象；每个事件都必须是对象',
    // A schedule's shape and ops against the engine's rules (core/engine/src/detail/chunk_index.cpp).
    'shape.no_rank': '调度至少需要 1 个 rank',
    'shape.ranks_mismatch': '调度列出了 {listed} 个 rank，但声明了 {ranks} 个',
    'shape.rank_ranges': '调度的 rank_begin 没有把其 {ops} 个操作分成每个 rank 一段',
    'shape.layout': '调度的布局没有把每个阶段放到某个 rank 上',
    'shape.layout_rank': '调度的布局把一个阶段放在 rank {rank} 上，超出 0..{max}',
    'shape.too_large_to_index': '含 {ops} 个操作、{chunks} 个块的调度超出了 pipesim 能索引的范围（每项最多 {max}）',
    'op.phase_direction': '在双向调度中 phase 必须是 0 或 1（即方向）',
    'op.phase_negative': 'phase 必须 >= 0',
    'op.mb_range': '微批次 {mb} 超出 0..{max}',
    'op.stage_range': '阶段 {stage} 超出 0..{max}',
    'op.stage_owner': '阶段 {stage} 位于 rank {owner}，而不在 rank {rank}',
    'op.pair_same_chunk': '重叠的一对需要两个不同的块',
    'op.forward_twice': '前向 {forward} 运行了两次',
    'op.backward_twice': '此块的反向运行了两次',
    'op.backward_before_forward': '反向在本 rank 上早于其块的前向运行',
    'op.w_before_i': 'W 必须在本 rank 上同一块的 I 之后',
    'op.w_twice': '此块的 W 运行了两次',
    'op.breaks_rule': '违反了引擎的一条规则',
    'missing.forward': '阶段 {stage}（rank {rank}）上的微批次 {mb} 没有前向',
    'missing.forward_direction': '阶段 {stage}（rank {rank}）上方向 {direction} 的微批次 {mb} 没有前向',
    'missing.backward': '阶段 {stage}（rank {rank}）上的微批次 {mb} 没有反向',
    'missing.backward_direction': '阶段 {stage}（rank {rank}）上方向 {direction} 的微批次 {mb} 没有反向',
    'missing.weight': '阶段 {stage}（rank {rank}）上的微批次 {mb} 的 I 没有对应的 W',
    'missing.weight_direction': '阶段 {stage}（rank {rank}）上方向 {direction} 的微批次 {mb} 的 I 没有对应的 W',
    // Deadlocks ({cycle}, {stuck}: worded by LISTS).
    'deadlock.cycle': '死锁：{cycle}；此循环中没有操作能开始',
    'deadlock.cycle_more': '死锁：{cycle}；以及循环中另外 {more} 个 rank；此循环中没有操作能开始',
    'deadlock.lowering': 'torch 的发送/接收降级无法放置任何下一个操作（"Malformed compute schedule"）：{stuck}',
    // The reference timing's words (core/engine/src/reference/reference.cpp).
    'timing.unknown': "{name} 必须是 dataflow 或 reference（收到 '{value}'）",
    'sends.unknown': "{name} 必须是 rendezvous、eager 或 async（收到 '{value}'）",
    'sends.only_reference': '{sends} 只适用于 {reference}',
    // The reference timing's communication programs and deadlocks (core/engine/src/reference/reference.cpp).
    'comm.fewer_steps': '计算步骤少于操作：操作 {op}（{op_text}）从未运行',
    'comm.never_launched': '将 {step} 排入队列却从未发起',
    'comm.chunk_not_here': '{action} 指向的块（微批次 {mb}，阶段 {stage}）的阶段不在本 rank 上',
    'comm.no_previous': '{action} 位于阶段 {stage}，而该阶段没有上一个阶段',
    'comm.no_next': '{action} 位于阶段 {stage}，而该阶段没有下一个阶段',
    'comm.to_itself': '阶段 {stage} 的 {action} 发往本 rank 自身：与同一 rank 上的阶段相邻的阶段在本地交接',
    'comm.send_before_compute': '在计算出要发送的内容之前就将 {step} 排入队列',
    'comm.sends_twice': '{step} 发送了两次',
    'comm.receives_twice': '{step} 接收了两次',
    'comm.order_step': '期待来自 rank {sender} 的 {step}，但该链路上发起的下一个发送是 {instead}：一条链路的发送与接收必须顺序一致',
    'comm.order_number': '期待来自 rank {sender} 的 {step}，但该链路上发起的下一个发送是 rank {sender} 发给它的第 {number} 个发送：一条链路的发送与接收必须顺序一致',
    'comm.unlaunched_gradient': '运行操作 {op}（{op_text}）之前没有先发起从 rank {from} 接收其输出梯度',
    'comm.unlaunched_forward': '运行操作 {op}（{op_text}）之前没有先发起从 rank {from} 接收其前向输入',
    'comm.more_steps': '计算步骤多于操作',
    'deadlock.own_input': '死锁：rank {rank} {where}等待一个由它自己之后的操作产生的输入',
    'deadlock.never_matched_wait': '参考通信中的死锁：rank {rank} {where}等待 {step}，而 rank {peer} 从未与之匹配；没有 rank 能继续',
    'deadlock.comm_cycle': '参考通信中的死锁：{comm_cycle}；此循环中没有 rank 能继续',
    'deadlock.never_matched': '参考通信中的死锁：rank {rank} 的 {step} 从未被 rank {peer} 匹配',
  },
};

/** The keys this catalogue words, for tests. */
export const REFUSAL_KEYS = Object.keys(CATALOGUES['pt-BR']);

/** The sentence of `key` in `language` with its {placeholders}, for tests (undefined when missing). */
export function refusalTemplate(language: Exclude<Lang, 'en'>, key: string): string | undefined {
  return CATALOGUES[language][key];
}

/** `english` (the engine's message) in the page's language, from the refusal's key and values. */
export function wordRefusal(english: string, wording: Wording | undefined): string {
  const current = lang();
  if (current === 'en' || !wording) return english;
  const template = CATALOGUES[current][wording.key];
  if (!template) return english;
  const fields = FIELDS[current];
  const place = wording.params.at_kind ? PLACES[current][wording.params.at_kind] : undefined;
  const fill = (text: string): string => fillTemplate(current, text, (name) => {
    const value = wording.params[name];
    if (value === undefined) return undefined;
    if (name === 'field') return fields[value] ?? value;
    if (name === 'what') return DOCUMENTS[current][value] ?? value;
    if (name === 'which') return SIDES[current][value] ?? value;
    if (name === 'reason') return REASONS[current][value] ?? value;
    const keyed = KEYED_LISTS[wording.key]?.[name];
    if (keyed) return wordList(current, name, value, keyed);
    if (LISTS[name]) return wordList(current, name, value);
    if (name === 'value' && JSON_KINDS[current][value]) return JSON_KINDS[current][value];
    // pt-BR writes a decimal comma, as the page's numbers do.
    return current === 'pt-BR' && /^-?\d+\.\d+$/.test(value) ? value.replace('.', ',') : value;
  });
  return place ? seam(current, fill(place), fill(template)) : fill(template);
}
