// DualPipe (DeepSeek-V3 report §3.2.1; deepseek-ai/DualPipe `dualpipe.py`): two copies of the model
// fed from both ends. Rank r holds stage r of direction 0 and stage N-1-r of direction 1; ranks r and
// N-1-r run the same program with the directions swapped.
#include "detail/dualpipe_steps.h"
#include "detail/formulas.h"
#include "detail/spec_helpers.h"
#include "detail/specs.h"

namespace pipesim::detail {

namespace {

void check(const ScheduleParams& p) {
  require(p.ranks >= 2 && p.ranks % 2 == 0, "dualpipe",
          "needs an even number of ranks, at least 2: rank r is paired with rank N-1-r", ranks_text(p),
          {"dualpipe.even_ranks", size_params(p)});
  require(p.micro_batches % 2 == 0 && p.micro_batches >= 2 * p.ranks, "dualpipe",
          "needs an even number of micro-batches (half enter at each end), at least 2 x ranks = " +
              std::to_string(2 * p.ranks),
          micro_batches_text(p), {"dualpipe.micro_batches", size_params(p)});
}

// With `with_comm`, also the communication program of dualpipe.py's step() (reference timing).
auto generate_dualpipe(const ScheduleParams& p, bool with_comm) -> Schedule {
  const int n = p.ranks;
  const auto rank_program = [&](int r) {
    return DualPipeRank{std::min(r, n - 1 - r), n / 2, p.micro_batches / 2, r >= n / 2, {r, n - 1 - r}, n, false, false};
  };
  return dualpipe_schedule("dualpipe", p, two_way_layout(n), rank_program, with_comm);
}

auto generate(const ScheduleParams& p) -> Schedule { return generate_dualpipe(p, false); }
auto generate_with_comm(const ScheduleParams& p) -> Schedule { return generate_dualpipe(p, true); }

}  // namespace

/// (PP/2-1)(F&B+B-3W) with PP stages; shared by DualPipeV, whose PP is twice its ranks.
auto dualpipe_formula(int pp, const Costs& c) -> Formula {
  const double k = pp / 2.0 - 1;
  const double value = k * (c.fb + c.b - 3 * c.w);
  return Formula{"(PP/2-1)(F&B+B-3W)",
                 "(" + std::to_string(pp) + "/2-1)(" + num(c.fb) + "+" + num(c.b) + "-3*" + num(c.w) + ") = " + num(value),
                 value,
                 c.f == c.i() && c.i() == c.w && c.comm == 0,
                 "exact, as the largest per-rank bubble, when F = B-W = W and comm = 0",
                 "DualPipe README; DeepSeek-V3 report Table 2"};
}

const ScheduleSpec dualpipe_spec{
    "dualpipe",
    "DualPipe",
    "Bidirectional pipeline: micro-batches enter at both ends and a forward of one direction overlaps a "
    "backward of the other (F&B).",
    "DeepSeek-V3 report §3.2.1 and Fig. 5; deepseek-ai/DualPipe dualpipe.py",
    "ranks even and >= 2; micro-batches even and >= 2 x ranks",
    false,
    check,
    generate,
    [](const ScheduleParams& p, const Costs& c) { return dualpipe_formula(p.ranks, c); },
    nullptr,
    generate_with_comm,
};

}  // namespace pipesim::detail
