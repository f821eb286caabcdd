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
    "zb-h1",
    "ZB-H1",
    "1F1B with split backwards: weight gradients fill the bubbles, same activation memory as 1F1B.",
    "Qi et al., Zero Bubble Pipeline Parallelism (arXiv 2401.10241), handcrafted ZB-H1",
    "ranks >= 1; micro-batches >= 1",
    false,
    any_size,
    [](const ScheduleParams& p) { return handcrafted_zero_bubble("zb-h1", p, 1); },
    formula,
};

}  // namespace pipesim::detail
