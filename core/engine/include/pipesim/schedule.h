#pragma once
// A schedule: which ops each rank runs, in order, and where every stage lives.
#include <span>
#include <string>
#include <vector>

#include "pipesim/comm.h"
#include "pipesim/op.h"
#include "pipesim/op_column.h"

namespace pipesim {

/// What the user asks a schedule generator for.
struct ScheduleParams {
  int ranks = 8;           ///< pipeline ranks (devices)
  int micro_batches = 20;  ///< per iteration; for two-direction schedules the total of both directions
  int virtual_stages = 1;  ///< stages per rank of an interleaved schedule; 1 elsewhere
  friend bool operator==(const ScheduleParams&, const ScheduleParams&) = default;
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
  OpColumn<Op> ops;             ///< every rank's ops, rank 0 first, each rank's in run order
  std::vector<int> rank_begin;  ///< rank r owns ops[rank_begin[r] .. rank_begin[r+1])
  /// How the schedule's reference runtime communicates (reference timing); empty unless asked for.
  CommProgram comm = {};

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

/// Where a generator writes one rank's ops, in run order. It can only append: the list behind it is
/// the whole schedule's.
class RankOps {
 public:
  explicit RankOps(OpColumn<Op>& ops) : ops_(&ops) {}
  void push_back(const Op& op) {
    // Field by field into the list's own slot. Copied whole, an Op built in a temporary is read back
    // with one wide load across its narrower stores, which the CPU cannot forward from its store
    // buffer: that stall was two thirds of DualPipe's generator time.
    Op& slot = ops_->emplace_back();
    slot.kind = op.kind;
    slot.chunk = op.chunk;
    slot.backward = op.backward;
  }
  void append(std::span<const Op> ops) { ops_->insert(ops_->end(), ops.begin(), ops.end()); }

 private:
  OpColumn<Op>* ops_;
};

/// Collects the ranks' op lists straight into the Schedule's one flat list: generators write rank 0's
/// ops, then rank 1's, and so on, so no per-rank copy is ever made (a large run is millions of ops).
class ScheduleBuilder {
 public:
  /// Reserves room for `ops_per_chunk` ops per chunk (3 covers F, I and W; F/B-only schedules pass 2):
  /// the flat list then never moves while it grows.
  ScheduleBuilder(std::string name, ScheduleParams params, Layout layout, int ops_per_chunk = 3);
  /// Reserves room for exactly `ops` ops, for a generator that can count them up front; build()
  /// checks the count (a mismatch is an internal error).
  struct ExactOps {
    std::size_t count;
  };
  ScheduleBuilder(std::string name, ScheduleParams params, Layout layout, ExactOps ops);
  /// Where to append rank r's ops. Ranks are written in increasing order; asking again for the rank
  /// being written continues it. Throws Error (internal) when a generator goes back.
  auto rank(int r) -> RankOps;
  [[nodiscard]] auto build() && -> Schedule;

 private:
  Schedule schedule_;
  int next_rank_ = 0;
  std::size_t exact_ops_ = 0;  // the ops a counting generator announced; 0: not counted
};

/// Checks what the engine relies on: chunks in range, each stage on the rank the layout says,
/// every forward and every backward exactly once, each I followed by its W on the same rank.
/// Throws Error naming the first offending op as "rank r, op k: ...".
void validate_schedule(const Schedule& schedule);

}  // namespace pipesim
