// ZB-H2 (Sea AI Lab, Zero Bubble paper Fig. 3): twice ZB-H1's warm-up, so the steady state has no
// bubble; it holds up to 2p-1 micro-batches' activations. Published "zero bubble" measures the span.
#include "detail/spec_helpers.h"
#include "detail/specs.h"
#include "detail/zero_bubble.h"

namespace pipesim::detail {

namespace {

auto formula(const ScheduleParams& p, const Costs& c) -> Formula {
  const int n = p.ranks;
  const double value = (n - 1) * (c.f + c.i() + 2 * c.comm - 2 * c.w);
  return Formula{"(PP-1)(F+B-3W+2comm), over the span",
                 "(" + std::to_string(n) + "-1)(" + num(c.f) + "+" + num(c.b) + "-3*" + num(c.w) + "+2*" +
                     num(c.comm) + ") = " + num(value),
                 value,
                 // 2comm <= F+B-W: checked on grids and random draws, and by Sea AI Lab's own code at
                 // the paper's costs with comm = 601 (issue 15).
                 c.w <= c.f && 2 * c.w <= c.f + c.i() && p.micro_batches >= 2 * n - 1 && 2 * c.comm <= c.f + c.i(),
                 "span bubble (first op to last op of a rank), exact when W <= F, 2W <= F+B-W, "
                 "micro-batches >= 2 x ranks - 1 and 2comm <= F+B-W; the paper writes "
                 "(p-1)(F+B_in+2c-2W); the global makespan adds the warm-up skew",
                 "Zero Bubble paper (Qi et al., ICLR 2024)",
                 true};
}

}  // namespace

const ScheduleSpec zb_h2_spec{
    .name = "zb-h2",
    .texts =
        {
            .en =
                {
                    .title = "ZB-H2",
                    .summary = "ZB-H1 with twice the warm-up: no bubble inside each rank’s span, at about twice "
                               "1F1B’s activation memory.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 1",
                    .caption = "ZB-H2 doubles the warm-up so no rank idles between its first and last op: “zero "
                               "bubble” measured over each rank’s span. The start-up skew remains in the global "
                               "makespan, and activations reach 2p−1.",
                },
            .pt_br =
                {
                    .title = "ZB-H2",
                    .summary = "ZB-H1 com o dobro de warm-up: nenhuma bolha dentro do intervalo de cada rank, com "
                               "cerca do dobro da memória de ativações do 1F1B.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 1",
                    .caption = "O ZB-H2 dobra o warm-up para que nenhum rank fique ocioso entre sua primeira e sua "
                               "última operação: “bolha zero” medida no intervalo de cada rank. A defasagem "
                               "da partida continua no makespan global, e as ativações chegam a 2p−1.",
                },
            .zh_cn =
                {
                    .title = "ZB-H2",
                    .summary = "预热加倍的 ZB-H1：每个 rank 的跨度内没有气泡，激活内存约为 1F1B 的两倍。",
                    .constraints = "rank 数 ≥ 1；微批次数 ≥ 1",
                    .caption = "ZB-H2 把预热加倍，使任何 rank 在其第一个与最后一个操作之间都不空闲：这是按每个 rank "
                               "的跨度衡量的“零气泡”。启动时的错位仍然计入全局 makespan，激活数达到 2p−1。",
                },
        },
    .source = "Qi et al., Zero Bubble Pipeline Parallelism (arXiv 2401.10241), handcrafted ZB-H2",
    .colour = {.light = "#e76f51"},
    .defaults = {.ranks = 8, .micro_batches = 20, .virtual_stages = 1},
    .check = any_size,
    .generate = [](const ScheduleParams& p) { return handcrafted_zero_bubble("zb-h2", p, 2); },
    .formula = formula,
};

}  // namespace pipesim::detail
