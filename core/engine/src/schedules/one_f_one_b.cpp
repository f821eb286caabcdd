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
    const int warm_up = std::min(m, p.ranks - 1 - r);
    int forwards = 0;
    int backwards = 0;
    while (forwards < warm_up) prog.forward({forwards++, 0, r});
    while (forwards < m) {
      prog.forward({forwards++, 0, r});
      prog.full_backward({backwards++, 0, r});
    }
    while (backwards < m) prog.full_backward({backwards++, 0, r});
  }
  return std::move(builder).build();
}

}  // namespace

const ScheduleSpec one_f_one_b_spec{
    "1f1b",
    "1F1B",
    "One forward, one backward: the bubble of GPipe with activations capped at p micro-batches.",
    "Narayanan et al., PipeDream-Flush (arXiv 2006.09503); order as torch Schedule1F1B's runtime",
    "ranks >= 1; micro-batches >= 1",
    false,
    any_size,
    generate,
    [](const ScheduleParams& p, const Costs& c) {
      return fill_drain_formula(p.ranks, c, false, "DualPipe README (1F1B row); Zero Bubble paper (Qi et al., ICLR 2024)");
    },
};

}  // namespace pipesim::detail
