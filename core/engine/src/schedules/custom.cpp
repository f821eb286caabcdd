// A schedule the user writes: JSON in the shape of `simulate --format json`, or PyTorch's action
// notation (see pipesim/custom.h). It is listed like the others so the page and `pipesim list` offer
// it, but it has no parameters to generate from: run() reads RunRequest::custom_schedule instead
// (schedule_from_text, inputs/custom.cpp, which this file does not reach: see ScheduleSpec::given_as_text).
#include "detail/spec_helpers.h"
#include "detail/specs.h"

namespace pipesim::detail {

namespace {

constexpr const char* needs_text =
    "custom needs the schedule as text (--schedule-file PATH): JSON as `simulate --format json` writes it, "
    "or PyTorch actions such as 0F0,0B0";

void check(const ScheduleParams&) { refuse_custom_without_text(); }

auto generate(const ScheduleParams&) -> Schedule { refuse_custom_without_text(); }

auto formula(const ScheduleParams&, const Costs&) -> Formula {
  return Formula{"none", "no closed form = 0", 0, false,
                 {.en = "a schedule given by the user has no published closed form: trust the simulation",
                  .pt_br = "um escalonamento dado pelo usuário não tem forma fechada publicada: confie na simulação",
                  .zh_cn = "用户给出的调度没有已发表的闭式：请以模拟结果为准"},
                 "", false};
}

}  // namespace

void refuse_custom_without_text() { throw Error(ErrorCode::usage, needs_text, {"custom.needs_text", {}}); }

const ScheduleSpec custom_spec{
    .name = "custom",
    .texts =
        {
            .en =
                {
                    .title = "Custom",
                    .summary = "Your own op order, given as text: pipesim's JSON, PyTorch action notation (one line per rank, "
                               "e.g. 0F0,0F1,0B0,0B1) or a Chrome trace pipesim wrote.",
                    .constraints = "every forward and backward exactly once, W after its I, each stage on one rank",
                    .caption = "Your schedule, simulated by the same engine: {ranks} ranks, {micro} micro-batches. "
                               "Every forward and backward must appear exactly once and W after its I.",
                },
            .pt_br =
                {
                    .title = "Personalizado",
                    .summary = "Sua própria ordem de operações, dada como texto: o JSON do pipesim, a notação de ações do "
                               "PyTorch (uma linha por rank, p. ex. 0F0,0F1,0B0,0B1) ou um trace do Chrome escrito pelo pipesim.",
                    .constraints = "cada forward e cada backward exatamente uma vez, W depois do seu I, cada "
                                   "estágio num único rank",
                    .caption = "Seu escalonamento, simulado pelo mesmo motor: {ranks} ranks, {micro} micro-batches. "
                               "Cada forward e cada backward precisa aparecer exatamente uma vez, e cada W depois do "
                               "seu I.",
                },
            .zh_cn =
                {
                    .title = "自定义",
                    .summary = "你自己的操作顺序，以文本给出：pipesim 的 JSON、PyTorch 的动作记法（每个 rank 一行，例如 "
                               "0F0,0F1,0B0,0B1），或 pipesim 写出的 Chrome trace。",
                    .constraints = "每个前向和反向恰好出现一次，W 在对应的 I 之后，每个阶段只在一个 rank 上",
                    .caption = "你的调度，由同一个引擎模拟：{ranks} 个 rank，{micro} 个微批次。每个前向和反向必须恰好出现一次，且 "
                               "W 在对应的 I 之后。",
                },
        },
    .source = "torch.distributed.pipelining _Action notation and pipesim's JSON contract",
    .colour = {.light = "#17becf", .dark = "#17becf"},
    .defaults = {.ranks = 8, .micro_batches = 20, .virtual_stages = 1},
    .check = check,
    .generate = generate,
    .formula = formula,
    .given_as_text = true,
};

}  // namespace pipesim::detail
