#pragma once
// DeepSeek's DualPipe `step()` for one rank: eight numbered loops. DualPipeV runs the same loops
// with other counts (its half rank is the rank, its half rank count is the rank count).
#include <array>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "pipesim/comm.h"
#include "pipesim/op.h"
#include "pipesim/schedule.h"

namespace pipesim::detail {

struct DualPipeRank {
  int half_rank = 0;        ///< DualPipe: min(r, N-1-r); DualPipeV: r
  int num_half_ranks = 0;   ///< DualPipe: N/2; DualPipeV: N
  int chunks_per_phase = 0; ///< micro-batches per phase: DualPipe C/2; DualPipeV C
  bool swap_phases = false; ///< DualPipe's second half: local phase 0 is direction 1
  std::array<int, 2> stage_of_phase{};  ///< stage this rank runs for phase 0 and phase 1
  int stages = 0;           ///< stages along one path: DualPipe N, DualPipeV 2N
  bool turns_locally = false; ///< DualPipeV's last rank: its phase-0 output is its own phase-1 input
  bool v_shape = false;     ///< DualPipeV (dualpipev.py), whose few comm calls differ from dualpipe.py's
};

/// Appends the rank's ops exactly as the reference `step()` runs them and, when `comm` is given, the
/// rank's communication program as `step()` queues, commits and waits for its receives and sends.
void dualpipe_steps(const DualPipeRank& rank, RankOps out, CommWriter* comm = nullptr);

/// How many ops dualpipe_steps appends for `rank`, from its step lengths, so a generator reserves
/// exactly the memory it fills (most ops are F&B pairs: a third of the generic three per chunk).
[[nodiscard]] auto dualpipe_op_count(const DualPipeRank& rank) -> std::size_t;

/// A whole DualPipe-family schedule: every rank's program (`rank_program(r)`) run through
/// dualpipe_steps into one exactly-sized list, with the communication program when `with_comm`
/// (reference timing). DualPipe and DualPipeV differ only in their rank programs and layouts.
template <typename RankProgram>
auto dualpipe_schedule(std::string name, const ScheduleParams& p, Layout layout, RankProgram rank_program, bool with_comm)
    -> Schedule {
  std::size_t ops = 0;
  for (int r = 0; r < p.ranks; ++r) ops += dualpipe_op_count(rank_program(r));
  ScheduleBuilder builder(std::move(name), p, std::move(layout), ScheduleBuilder::ExactOps{ops});
  CommProgram comm;
  // Per op at most: two receives, a commit (post, wait_all), the compute and two sends.
  if (with_comm) comm.steps.reserve(7 * ops);
  CommWriter writer(comm);
  for (int r = 0; r < p.ranks; ++r) {
    if (with_comm) writer.begin_rank(r);
    dualpipe_steps(rank_program(r), builder.rank(r), with_comm ? &writer : nullptr);
  }
  Schedule s = std::move(builder).build();
  if (with_comm) {
    writer.finish(p.ranks);
    s.comm = std::move(comm);
  }
  return s;
}

}  // namespace pipesim::detail
