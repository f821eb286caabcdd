// Interleaved 1F1B (Narayanan et al., SC'21; Megatron-LM's virtual pipeline): each rank holds v model
// chunks, stages r, r+p, r+2p, ... (the looped layout), and runs 1F1B over all of them. Forwards cycle
// through the chunks in groups of micro-batches ("rounds"), backwards through the chunks in reverse.
// The op order is PyTorch's ScheduleInterleaved1F1B ("flex" rounds, so m need not be a multiple of p);
// when m % p == 0 it is also Megatron's order.
#include <algorithm>

#include "detail/rank_program.h"
#include "detail/spec_helpers.h"
#include "detail/specs.h"

namespace pipesim::detail {

namespace {

/// PyTorch's rounds: max(1, m // p) groups of micro-batches; each group visits every chunk in turn.
[[nodiscard]] auto rounds(const ScheduleParams& p) -> int { return std::max(1, p.micro_batches / p.ranks); }

void check(const ScheduleParams& p) {
  // NOTE: we refuse v = 1 rather than treat it as 1F1B: torch's interleaved order with one chunk is not
  // 1F1B (its warm-up is 2(p-1-r), not p-1-r), so either reading would surprise someone.
  require(p.virtual_stages >= 2, "interleaved-1f1b",
          "needs at least 2 virtual stages per rank (with 1 it is plain 1f1b)",
          std::to_string(p.virtual_stages) + " virtual stage" + (p.virtual_stages == 1 ? "" : "s"),
          {"interleaved.virtual_stages", size_params(p)});
  const int r = rounds(p);
  require(p.micro_batches % r == 0, "interleaved-1f1b",
          "needs micro-batches to be a multiple of the rounds max(1, micro-batches / ranks) = " + std::to_string(r) +
              ", as PyTorch's ScheduleInterleaved1F1B requires",
          micro_batches_text(p), {"interleaved.micro_batches", [&] {
            auto params = size_params(p);
            params.emplace_back("rounds", std::to_string(r));
            return params;
          }()});
}

/// One rank's program. `k` counts forwards (and, from the end of the warm-up, backwards) on this rank.
void interleaved_rank(const ScheduleParams& p, int rank, RankOps out) {
  const int v = p.virtual_stages;
  const int per_round = p.micro_batches / rounds(p);
  const int total = p.micro_batches * v;  // forwards, and as many backwards, on this rank
  // The last rank runs ahead one round per extra chunk; each rank above it 2 more, one per hop and back.
  const int warm_up = std::min((v - 1) * per_round + 2 * (p.ranks - 1 - rank), total);
  std::vector<int> next_forward(static_cast<std::size_t>(v), 0);
  std::vector<int> next_backward(static_cast<std::size_t>(v), 0);
  const auto chunk = [&](int c, std::vector<int>& next) {
    return Chunk{next[static_cast<std::size_t>(c)]++, c, c * p.ranks + rank};
  };
  RankProgram prog(out);
  const auto F = [&](int k) { prog.forward(chunk((k / per_round) % v, next_forward)); };
  const auto B = [&](int k) { prog.full_backward(chunk(v - 1 - (k / per_round) % v, next_backward)); };

  // Step 1: nF (warm-up)
  for (int k = 0; k < warm_up; ++k) F(k);
  // Step 2: nFB (steady state: the next forward, then the oldest backward)
  const int step_2 = total - warm_up;
  for (int k = 0; k < step_2; ++k) {
    F(warm_up + k);
    B(k);
  }
  // Step 3: nB (cool-down)
  for (int k = step_2; k < total; ++k) B(k);
}

auto generate(const ScheduleParams& p) -> Schedule {
  ScheduleBuilder builder("interleaved-1f1b", p, looped_layout(p.ranks, p.virtual_stages), 2);  // F and B only
  for (int r = 0; r < p.ranks; ++r) interleaved_rank(p, r, builder.rank(r));
  return std::move(builder).build();
}

/// (p-1)(f+b) with per-chunk costs: 1F1B's fill and drain shrunk by v.
auto formula(const ScheduleParams& p, const Costs& c) -> Formula {
  const int n = p.ranks;
  const double value = (n - 1) * (c.f + c.b);
  return Formula{"(PP-1)(F+B)",
                 "(" + std::to_string(n) + "-1)(" + num(c.f) + "+" + num(c.b) + ") = " + num(value),
                 value,
                 p.micro_batches >= n && c.comm == 0,
                 "F and B per chunk (a whole stage share costs v x F); exact on every rank when micro-batches >= "
                 "ranks and comm = 0 (also for torch's flex rounds, e.g. 4 ranks, 10 micro-batches); ratio to the "
                 "ideal time (PP-1)/(v x micro-batches)",
                 "Narayanan et al., Megatron-LM (arXiv 2104.04473) §2.2"};
}

}  // namespace

const ScheduleSpec interleaved_1f1b_spec{
    "interleaved-1f1b",
    "Interleaved 1F1B",
    "1F1B over v model chunks per rank (stages r, r+p, ...): the fill and drain shrink by v, at the cost "
    "of v times the sends.",
    "Narayanan et al., Megatron-LM (arXiv 2104.04473); order as torch ScheduleInterleaved1F1B",
    "virtual stages >= 2; micro-batches a multiple of max(1, micro-batches / ranks)",
    true,
    check,
    generate,
    formula,
};

}  // namespace pipesim::detail
