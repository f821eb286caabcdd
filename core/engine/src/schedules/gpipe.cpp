// GPipe (Huang et al., 2019): every forward, then every backward, micro-batches FIFO (torch's order).
#include <utility>

#include "detail/rank_program.h"
#include "detail/formulas.h"
#include "detail/spec_helpers.h"
#include "detail/specs.h"

namespace pipesim::detail {

namespace {

auto generate(const ScheduleParams& p) -> Schedule {
  ScheduleBuilder builder("gpipe", p, straight_layout(p.ranks), 2);  // F and B only
  for (int r = 0; r < p.ranks; ++r) {
    RankProgram prog(builder.rank(r));
    // Step 1: nF (every forward)
    const int step_1 = p.micro_batches;
    for (int mb = 0; mb < step_1; ++mb) prog.forward({mb, 0, r});
    // Step 2: nB (every backward, FIFO as torch's ScheduleGPipe)
    const int step_2 = p.micro_batches;
    for (int mb = 0; mb < step_2; ++mb) prog.full_backward({mb, 0, r});
  }
  return std::move(builder).build();
}

}  // namespace

const ScheduleSpec gpipe_spec{
    .name = "gpipe",
    .texts =
        {
            .en =
                {
                    .title = "GPipe",
                    .summary = "All forwards, then all backwards: simple, but every micro-batch’s activations stay "
                               "alive at once.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 1",
                    .caption = "GPipe runs every forward, then every backward: the same bubble as 1F1B, but all "
                               "{micro} micro-batches’ activations are alive at once.",
                },
            .pt_br =
                {
                    .title = "GPipe",
                    .summary = "Todos os forwards e depois todos os backwards: simples, mas as ativações de todos "
                               "os micro-batches ficam vivas ao mesmo tempo.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 1",
                    .caption = "O GPipe executa todos os forwards e depois todos os backwards: a mesma bolha do "
                               "1F1B, mas as ativações dos {micro} micro-batches ficam vivas ao mesmo tempo.",
                },
            .zh_cn =
                {
                    .title = "GPipe",
                    .summary = "先做全部前向，再做全部反向：简单，但所有微批次的激活会同时驻留。",
                    .constraints = "rank 数 ≥ 1；微批次数 ≥ 1",
                    .caption = "GPipe 先执行全部前向，再执行全部反向：气泡与 1F1B 相同，但全部 {micro} 个微批次的激活会同时驻留。",
                },
        },
    .source = "Huang et al., GPipe (arXiv 1811.06965); order as torch.distributed.pipelining ScheduleGPipe",
    .colour = {.light = "#7f7f7f", .dark = "#8c8c8c"},
    .defaults = {.ranks = 8, .micro_batches = 20, .virtual_stages = 1},
    .check = any_size,
    .generate = generate,
    // The DualPipe README's table has a 1F1B row but no GPipe row; GPipe's own paper gives the bubble
    // as the fraction (K-1)/(M+K-1) of the step, which is (K-1)(F+B) per rank.
    .formula = [](const ScheduleParams& p, const Costs& c) {
      Formula f = fill_drain_formula(p.ranks, c, true,
                                     "GPipe (Huang et al., arXiv 1811.06965): bubble (K-1)/(M+K-1) of the step; Zero "
                                     "Bubble paper (Qi et al., ICLR 2024)");
      f.rank_terms = gpipe_terms(p.ranks, c);
      return f;
    },
};

}  // namespace pipesim::detail
