// 1F1B (PipeDream-Flush, Megatron-LM): p-1-r forwards of warm-up, then one forward and one backward
// in turn, then the remaining backwards. Same order as torch's runtime and Sea AI Lab's basic1f1b.
#include <algorithm>

#include "detail/rank_program.h"
#include "detail/formulas.h"
#include "detail/spec_helpers.h"
#include "detail/specs.h"

namespace pipesim::detail {

namespace {

auto generate(const ScheduleParams& p) -> Schedule {
  ScheduleBuilder builder("1f1b", p, straight_layout(p.ranks), 2);  // F and B only
  const int m = p.micro_batches;
  for (int r = 0; r < p.ranks; ++r) {
    RankProgram prog(builder.rank(r));
    int forwards = 0;
    int backwards = 0;
    // Step 1: nF (warm-up: the forwards in flight below this rank)
    const int step_1 = std::min(m, p.ranks - 1 - r);
    for (int i = 0; i < step_1; ++i) prog.forward({forwards++, 0, r});
    // Step 2: nFB (steady state: the next forward, then the oldest backward)
    const int step_2 = m - step_1;
    for (int i = 0; i < step_2; ++i) {
      prog.forward({forwards++, 0, r});
      prog.full_backward({backwards++, 0, r});
    }
    // Step 3: nB (cool-down: the warm-up's backwards)
    const int step_3 = step_1;
    for (int i = 0; i < step_3; ++i) prog.full_backward({backwards++, 0, r});
  }
  return std::move(builder).build();
}

}  // namespace

const ScheduleSpec one_f_one_b_spec{
    .name = "1f1b",
    .texts =
        {
            .en =
                {
                    .title = "1F1B",
                    .summary = "One forward, one backward: the bubble of GPipe with activations capped at p "
                               "micro-batches.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 1",
                    .caption = "1F1B: after a warm-up of forwards, each rank alternates one forward and one "
                               "backward, so rank 0 holds at most {ranks} micro-batches. The bubble (PP−1)(F+B) is "
                               "paid once at the start and once at the end.",
                },
            .pt_br =
                {
                    .title = "1F1B",
                    .summary = "Um forward, um backward: a bolha do GPipe, com as ativações limitadas a p "
                               "micro-batches.",
                    .constraints = "ranks ≥ 1; micro-batches ≥ 1",
                    .caption = "1F1B: depois de um warm-up de forwards, cada rank alterna um forward e um backward, "
                               "e assim o rank 0 guarda no máximo {ranks} micro-batches. A bolha (PP−1)(F+B) é "
                               "paga uma vez no início e outra no fim.",
                },
            .zh_cn =
                {
                    .title = "1F1B",
                    .summary = "一次前向、一次反向交替进行：气泡与 GPipe 相同，但激活最多只保留 p 个微批次。",
                    .constraints = "rank 数 ≥ 1；微批次数 ≥ 1",
                    .caption = "1F1B：经过一段前向预热后，每个 rank 交替执行一次前向和一次反向，因此 rank 0 最多保留 {ranks} "
                               "个微批次。气泡 (PP−1)(F+B) 在开头和结尾各付出一次。",
                },
        },
    .source = "Narayanan et al., PipeDream-Flush (arXiv 2006.09503); order as torch Schedule1F1B's runtime",
    .colour = {.light = "#4e79a7", .dark = "#5f88b4"},
    .defaults = {.ranks = 8, .micro_batches = 20, .virtual_stages = 1},
    .check = any_size,
    .generate = generate,
    .formula = [](const ScheduleParams& p, const Costs& c) {
      Formula f = fill_drain_formula(p.ranks, c, false, "DualPipe README (1F1B row); Zero Bubble paper (Qi et al., ICLR 2024)");
      // NOTE: with fewer micro-batches than ranks some ranks never reach the steady state; no split then.
      if (p.micro_batches >= p.ranks) f.rank_terms = one_f_one_b_terms(p.ranks, c);
      return f;
    },
};

}  // namespace pipesim::detail
