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
    for (int mb = 0; mb < p.micro_batches; ++mb) prog.forward({mb, 0, r});
    for (int mb = 0; mb < p.micro_batches; ++mb) prog.full_backward({mb, 0, r});
  }
  return std::move(builder).build();
}

}  // namespace

/// (p-1)(F+B): the fill and drain of a pipeline without zero-bubble splitting. GPipe's phases are
/// separate chains, so each send adds its latency once per hop: exact with comm too. 1F1B's steady
/// state also waits on round trips when comm > 0, so there the closed form needs comm = 0.
auto fill_drain_formula(int p, const Costs& c, bool with_comm, std::string source) -> Formula {
  const double value = (p - 1) * (c.f + c.b + (with_comm ? 2 * c.comm : 0));
  const std::string numbers = "(" + std::to_string(p) + "-1)(" + num(c.f) + "+" + num(c.b) +
                              (with_comm ? "+2*" + num(c.comm) : "") + ") = " + num(value);
  return Formula{with_comm ? "(PP-1)(F+B+2comm)" : "(PP-1)(F+B)",
                 numbers,
                 value,
                 with_comm || exact_when_no_comm(c),
                 with_comm ? "exact on every rank" : "exact on every rank when comm = 0",
                 std::move(source)};
}

const ScheduleSpec gpipe_spec{
    "gpipe",
    "GPipe",
    "All forwards, then all backwards: simple, but every micro-batch's activations stay alive at once.",
    "Huang et al., GPipe (arXiv 1811.06965); order as torch.distributed.pipelining ScheduleGPipe",
    "ranks >= 1; micro-batches >= 1",
    false,
    any_size,
    generate,
    // The DualPipe README's table has a 1F1B row but no GPipe row; GPipe's own paper gives the bubble
    // as the fraction (K-1)/(M+K-1) of the step, which is (K-1)(F+B) per rank.
    [](const ScheduleParams& p, const Costs& c) {
      return fill_drain_formula(p.ranks, c, true,
                                "GPipe (Huang et al., arXiv 1811.06965): bubble (K-1)/(M+K-1) of the step; Zero Bubble "
                                "paper (Qi et al., ICLR 2024)");
    },
};

}  // namespace pipesim::detail
