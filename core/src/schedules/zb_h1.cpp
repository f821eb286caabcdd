// ZB-H1 (Sea AI Lab, Zero Bubble paper Fig. 3): 1F1B with each backward split into I and W, and the
// W's of the first r micro-batches deferred to fill the cool-down. Same memory as 1F1B.
#include "detail/spec_helpers.h"
#include "detail/specs.h"
#include "detail/zero_bubble.h"

namespace pipesim::detail {

namespace {

auto formula(const ScheduleParams& p, const Costs& c) -> Formula {
  const int n = p.ranks;
  const double value = (n - 1) * (c.f + c.b - 2 * c.w);
  return Formula{"(PP-1)(F+B-2W)",
                 "(" + std::to_string(n) + "-1)(" + num(c.f) + "+" + num(c.b) + "-2*" + num(c.w) + ") = " + num(value),
                 value,
                 c.w <= std::min(c.f, c.i()) && p.micro_batches >= n && c.comm == 0,
                 "exact when W <= min(F, B-W), micro-batches >= ranks and comm = 0; the paper writes it "
                 "(p-1)(F+B_in-W)",
                 "Zero Bubble paper (Qi et al., ICLR 2024); DualPipe README (ZB1P row)"};
}

}  // namespace

const ScheduleSpec zb_h1_spec{
    .name = "zb-h1",
    .texts =
        {
            .en =
                {
                    .title = "ZB-H1",
                    .summary = "1F1B with split backwards: weight gradients fill the bubbles, same activation memory "
                               "as 1F1B.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 1",
                    .caption = "ZB-H1 splits each backward into I (input gradient, on the critical path) and W "
                               "(weight gradient, deferrable). Deferred W’s fill the cool-down, shrinking the "
                               "bubble to (PP−1)(F+B−2W) with 1F1B’s memory.",
                },
            .pt_br =
                {
                    .title = "ZB-H1",
                    .summary = "1F1B com backwards divididos: os gradientes dos pesos preenchem as bolhas, com a "
                               "mesma memória de ativações do 1F1B.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 1",
                    .caption = "O ZB-H1 divide cada backward em I (gradiente da entrada, no caminho crítico) e W "
                               "(gradiente dos pesos, adiável). Os W adiados preenchem o cool-down, reduzindo a "
                               "bolha para (PP−1)(F+B−2W) com a memória do 1F1B.",
                },
            .zh_cn =
                {
                    .title = "ZB-H1",
                    .summary = "拆分反向的 1F1B：权重梯度填充气泡，激活内存与 1F1B 相同。",
                    .constraints = "rank 数 ≥ 1；微批次数 ≥ 1",
                    .caption = "ZB-H1 把每个反向拆成 I（输入梯度，位于关键路径上）和 W（权重梯度，可推迟）。推迟的 W "
                               "填充收尾阶段，把气泡缩小到 (PP−1)(F+B−2W)，激活内存与 1F1B 相同。",
                },
        },
    .source = "Qi et al., Zero Bubble Pipeline Parallelism (arXiv 2401.10241), handcrafted ZB-H1",
    .colour = {.light = "#2a9d8f"},
    .defaults = {.ranks = 8, .micro_batches = 20, .virtual_stages = 1},
    .check = any_size,
    .generate = [](const ScheduleParams& p) { return handcrafted_zero_bubble("zb-h1", p, 1); },
    .formula = formula,
};

}  // namespace pipesim::detail
