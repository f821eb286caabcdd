#pragma once
// A schedule: which ops each rank runs, in order, and where every stage lives.
#include <span>
#include <string>
#include <vector>

#include "pipesim/op.h"

namespace pipesim {

/// What the user asks a schedule generator for.
struct ScheduleParams {
  int ranks = 8;           ///< pipeline ranks (devices)
  int micro_batches = 20;  ///< per iteration; for two-direction schedules the total of both directions
  int virtual_stages = 1;  ///< stages per rank of an interleaved schedule; 1 elsewhere
};

/// Where each stage of each path runs. A path is the route of one stream of micro-batches:
/// two-direction schedules (DualPipe, Chimera) have two, whose `phase` is the direction.
struct Layout {
  int directions = 1;               ///< 1, or 2 for schedules fed from both ends
  int stages = 0;                   ///< stages along one path
  std::vector<int> rank_of_stage;   ///< [direction * stages + stage] -> rank

  [[nodiscard]] auto rank_of(int direction, int stage) const -> int {
    return rank_of_stage[static_cast<std::size_t>(direction * stages + stage)];
  }
};

/// Layout helpers for the common placements.
[[nodiscard]] auto straight_layout(int ranks) -> Layout;                 ///< stage r on rank r
[[nodiscard]] auto looped_layout(int ranks, int virtual_stages) -> Layout;  ///< stage s on rank s % ranks
[[nodiscard]] auto v_layout(int ranks) -> Layout;       ///< stages r and 2p-1-r on rank r
[[nodiscard]] auto two_way_layout(int ranks) -> Layout; ///< direction 0: r on r; direction 1: r on p-1-r

struct Schedule {
  std::string name;
  ScheduleParams params;
  Layout layout;
  std::vector<Op> ops;          ///< every rank's ops, rank 0 first, each rank's in run order
  std::vector<int> rank_begin;  ///< rank r owns ops[rank_begin[r] .. rank_begin[r+1])

  [[nodiscard]] auto ranks() const -> int { return params.ranks; }
  [[nodiscard]] auto ops_of(int rank) const -> std::span<const Op> {
    return std::span<const Op>(ops).subspan(static_cast<std::size_t>(rank_begin[rank]),
                                            static_cast<std::size_t>(rank_begin[rank + 1] - rank_begin[rank]));
  }
  [[nodiscard]] auto rank_of_op(int op_index) const -> int;
  /// Micro-batches that enter each path.
  [[nodiscard]] auto micro_batches_per_path() const -> int { return params.micro_batches / layout.directions; }
  /// The path a chunk belongs to: its phase in two-direction schedules, else 0.
  [[nodiscard]] auto path_of(const Chunk& c) const -> int { return layout.directions == 2 ? c.phase : 0; }
  /// Model stages whose parameters rank r holds (DualPipe: 2, 1F1B: 1, interleaved: v).
  [[nodiscard]] auto stages_held(int rank) const -> int;
};

/// Collects per-rank op lists and flattens them into a Schedule.
class ScheduleBuilder {
 public:
  ScheduleBuilder(std::string name, ScheduleParams params, Layout layout);
  auto rank(int r) -> std::vector<Op>& { return per_rank_[static_cast<std::size_t>(r)]; }
  [[nodiscard]] auto build() && -> Schedule;

 private:
  std::string name_;
  ScheduleParams params_;
  Layout layout_;
  std::vector<std::vector<Op>> per_rank_;
};

/// Checks what the engine relies on: chunks in range, each stage on the rank the layout says,
/// every forward and every backward exactly once, each I followed by its W on the same rank.
/// Throws Error naming the first offending op as "rank r, op k: ...".
void validate_schedule(const Schedule& schedule);

}  // namespace pipesim
