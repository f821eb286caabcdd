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
    "zb-h2",
    "ZB-H2",
    "ZB-H1 with twice the warm-up: no bubble inside the span, at about twice 1F1B's activation memory.",
    "Qi et al., Zero Bubble Pipeline Parallelism (arXiv 2401.10241), handcrafted ZB-H2",
    "ranks >= 1; micro-batches >= 1",
    false,
    any_size,
    [](const ScheduleParams& p) { return handcrafted_zero_bubble("zb-h2", p, 2); },
    formula,
};

}  // namespace pipesim::detail
