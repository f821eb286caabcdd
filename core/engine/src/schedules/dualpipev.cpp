// DualPipeV (deepseek-ai/DualPipe `dualpipev.py`; Sea AI Lab's "cut-in-half" of DualPipe): one copy
// of a 2N-stage model folded into a V. Rank r holds stage r (leg 0, going down) and stage 2N-1-r
// (leg 1, coming back); every micro-batch enters at rank 0 and turns on rank N-1.
#include "detail/dualpipe_steps.h"
#include "detail/formulas.h"
#include "detail/spec_helpers.h"
#include "detail/specs.h"

namespace pipesim::detail {

namespace {

void check(const ScheduleParams& p) {
  require(p.micro_batches >= 2 * p.ranks, "dualpipev",
          "needs at least 2 x ranks = " + std::to_string(2 * p.ranks) + " micro-batches (as many as stages)",
          micro_batches_text(p), {"dualpipev.micro_batches", size_params(p)});
}

// With `with_comm`, also the communication program of dualpipev.py's step() (reference timing).
auto generate_dualpipev(const ScheduleParams& p, bool with_comm) -> Schedule {
  const int n = p.ranks;
  const auto rank_program = [&](int r) {
    return DualPipeRank{r, n, p.micro_batches, false, {r, 2 * n - 1 - r}, 2 * n, r == n - 1, true};
  };
  return dualpipe_schedule("dualpipev", p, v_layout(n), rank_program, with_comm);
}

auto generate(const ScheduleParams& p) -> Schedule { return generate_dualpipev(p, false); }
auto generate_with_comm(const ScheduleParams& p) -> Schedule { return generate_dualpipev(p, true); }

}  // namespace

const ScheduleSpec dualpipev_spec{
    "dualpipev",
    "DualPipeV",
    "DualPipe cut in half: one model copy folded into a V over N ranks (2N stages), same bubble formula.",
    "deepseek-ai/DualPipe dualpipev.py; Sea AI Lab, \"Cut-in-half\" (hackmd.io/@ufotalent/r1lVXsa9Jg)",
    "ranks >= 1; micro-batches >= 2 x ranks",
    false,
    check,
    generate,
    [](const ScheduleParams& p, const Costs& c) { return dualpipe_formula(2 * p.ranks, c); },
    nullptr,
    generate_with_comm,
};

}  // namespace pipesim::detail
