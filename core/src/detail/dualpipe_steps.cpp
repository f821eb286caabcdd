#include "detail/dualpipe_steps.h"

#include <algorithm>

#include "detail/rank_program.h"
#include "pipesim/error.h"

namespace pipesim::detail {

namespace {

// Hands out the next micro-batch per phase, FIFO like the reference's chunk counters. A rank's
// "local phase" is XOR-ed with swap_phases exactly as `phase ^= self.is_in_second_half`.
class PhaseCounters {
 public:
  explicit PhaseCounters(const DualPipeRank& r) : r_(r) {}
  auto next_forward(int local_phase) -> Chunk { return next(local_phase, forwards_); }
  auto next_backward(int local_phase) -> Chunk { return next(local_phase, backwards_); }

 private:
  auto next(int local_phase, std::array<int, 2>& counters) -> Chunk {
    const int phase = local_phase ^ static_cast<int>(r_.swap_phases);
    return Chunk{counters[static_cast<std::size_t>(phase)]++, phase, r_.stage_of_phase[static_cast<std::size_t>(phase)]};
  }
  const DualPipeRank& r_;
  std::array<int, 2> forwards_{};
  std::array<int, 2> backwards_{};
};

// How many times each of the reference's eight steps loops on a rank (its step_1 ... step_8): the
// op list follows from them, and so does its length.
struct StepLengths {
  int step_1, step_2, step_3, step_4, step_5, step_6, step_7, step_8;
};

auto step_lengths(const DualPipeRank& rank) -> StepLengths {
  const int h = rank.half_rank;
  const int half = rank.num_half_ranks;
  return {(half - h - 1) * 2, h + 1, half - h - 1, rank.chunks_per_phase - 2 * half + h + 1,
          half - h - 1,       h + 1, half - h - 1, h + 1};
}

// The reference does not overlap the middle rank(s)' first main-step pair, to shrink the bubble.
auto splits_first_main_pair(const DualPipeRank& rank) -> bool { return rank.half_rank == rank.num_half_ranks - 1; }

}  // namespace

void dualpipe_steps(const DualPipeRank& rank, RankOps out) {
  RankProgram p(out);
  PhaseCounters next(rank);
  const int h = rank.half_rank;
  const StepLengths n = step_lengths(rank);
  const auto F = [&](int phase) { p.forward(next.next_forward(phase)); };
  const auto B = [&](int phase, bool split) { p.backward(next.next_backward(phase), split); };
  const auto FB = [&](int f_phase, int b_phase) {
    const Chunk f = next.next_forward(f_phase);
    p.overlapped(f, next.next_backward(b_phase));
  };

  // Step 1: nF0
  for (int i = 0; i < n.step_1; ++i) F(0);

  // Step 2: nF0F1
  for (int i = 0; i < n.step_2; ++i) {
    F(0);
    F(1);
  }

  // Step 3: nB1W1F1 (zero bubble: the backward is split and a W fills the wait)
  for (int i = 0; i < n.step_3; ++i) {
    B(1, true);
    p.weight();
    F(1);
  }

  // Step 4 (main step): nF0B1F1B0
  for (int i = 0; i < n.step_4; ++i) {
    if (i == 0 && splits_first_main_pair(rank)) {
      F(0);
      B(1, false);
    } else {
      FB(0, 1);
    }
    FB(1, 0);
  }

  // Step 5: nB1F1B0
  for (int i = 0; i < n.step_5; ++i) {
    B(1, false);
    FB(1, 0);
  }

  // Step 6: nB1B0 (the second half of these backwards is split into I + W)
  bool split = false;
  for (int i = 0; i < n.step_6; ++i) {
    if (i == n.step_6 / 2 && h % 2 == 1) split = true;
    B(1, split);
    if (i == n.step_6 / 2 && h % 2 == 0) split = true;
    B(0, split);
  }

  // Step 7: nWB0 (zero bubble)
  for (int i = 0; i < n.step_7; ++i) {
    p.weight();
    B(0, true);
  }

  // Step 8: nW
  for (int i = 0; i < n.step_8; ++i) p.weight();
  if (p.parked() != 0) throw Error(ErrorCode::internal, "internal: weight-gradient queue not empty at the end of the step");
}

auto dualpipe_op_count(const DualPipeRank& rank) -> std::size_t {
  const StepLengths n = step_lengths(rank);
  // Ops per iteration of each step as dualpipe_steps runs it (a split backward's W comes in steps 3,
  // 7 and 8); the middle rank's first main step runs F and B apart, one op more than a pair.
  const int ops = n.step_1 + 2 * n.step_2 + 3 * n.step_3 + 2 * n.step_4 +
                  (splits_first_main_pair(rank) && n.step_4 > 0 ? 1 : 0) + 2 * n.step_5 + 2 * n.step_6 +
                  2 * n.step_7 + n.step_8;
  return static_cast<std::size_t>(std::max(ops, 0));
}

}  // namespace pipesim::detail
