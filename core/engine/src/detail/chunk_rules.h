#pragma once
// The rules every schedule keeps (validate_schedule's), stated once, over one entry per chunk. The
// ChunkIndex (validation with its messages, op_inputs) and the engine (which checks them as it runs)
// both find chunks through ChunkGrid and read and write their entries through the functions below,
// so the two cannot drift apart.
#include <cstddef>
#include <cstdint>

#include "pipesim/schedule.h"

namespace pipesim::detail {

/// What is known of one chunk (one micro-batch at one stage) after some of its rank's ops: the ops
/// that ran its forward and its backward, stored as op index + 1 so that a zero-filled table reads
/// "not run yet"; and whether its backward was split, an I owing its W. Packed into 8 bytes because a
/// large run has millions of chunks.
/// All-zero bytes (a value-initialised ChunkProgress{}, or a memset table) mean "nothing run yet";
/// there are no default member initialisers, so an OpColumn of them can be sized without a pass.
struct ChunkProgress {
  std::uint32_t forward;        // 1 + the F or FB that ran the forward; 0 = not yet
  std::uint32_t backward : 30;  // 1 + the B, I or FB that ran the backward; 0 = not yet
  std::uint32_t split : 1;      // the backward was an I: its W must follow on the same rank
  std::uint32_t weighted : 1;   // that W has run
};
static_assert(sizeof(ChunkProgress) == 8);

/// Op indices a ChunkProgress can hold (`backward` has 30 bits). The request limits allow about
/// 6.3 M ops; check_shape() refuses a larger hand-built schedule.
inline constexpr std::size_t max_indexed_ops = (std::size_t{1} << 30) - 2;

/// The op an entry names, or -1 (no_op) when it names none.
[[nodiscard]] constexpr auto op_of(std::uint32_t entry) -> int { return static_cast<int>(entry) - 1; }

// The rules, each over the entries as they stand just before the op runs on the chunk's own rank.
// A forward runs once; a backward once, after the forward on the same rank; a W once, after an I.
[[nodiscard]] constexpr auto may_run_forward(const ChunkProgress& c) -> bool { return c.forward == 0; }
[[nodiscard]] constexpr auto may_run_backward(const ChunkProgress& c) -> bool {
  return c.backward == 0 && c.forward != 0;
}
[[nodiscard]] constexpr auto may_run_weight(const ChunkProgress& c) -> bool {
  return c.backward != 0 && c.split != 0 && c.weighted == 0;
}
/// Every chunk of a finished schedule ran its forward and its backward, and the W of a split one.
[[nodiscard]] constexpr auto complete(const ChunkProgress& c) -> bool {
  return c.forward != 0 && c.backward != 0 && c.split == c.weighted;
}

inline void record_forward(ChunkProgress& c, int op) { c.forward = static_cast<std::uint32_t>(op + 1); }
inline void record_backward(ChunkProgress& c, int op, bool split) {
  c.backward = static_cast<std::uint32_t>(op + 1);
  c.split = split ? 1 : 0;
}
inline void record_weight(ChunkProgress& c) { c.weighted = 1; }

/// Throws Error (invalid_schedule) unless the schedule's shape is one the engine can index: at least
/// one rank and one stage, rank_begin splitting the op list into one range per rank, a rank for every
/// stage, and no more chunks or ops than an index can address.
void check_shape(const Schedule& s);

/// Where each chunk's entry is in a table of a schedule's chunks: one row per (path, stage,
/// micro-batch). A slot is one stage of one path and its chunks are contiguous, so the neighbouring
/// stage's row is one path's length away. The schedule must have passed check_shape().
class ChunkGrid {
 public:
  explicit ChunkGrid(const Schedule& s)
      : phase_limit_(s.layout.directions == 2 ? 2U : 128U), phase_stride_(s.layout.directions == 2 ? s.layout.stages : 0),
        stages_(s.layout.stages),
        per_path_(s.micro_batches_per_path() > 0 ? s.micro_batches_per_path() : 0),
        chunks_(static_cast<std::size_t>(s.layout.directions) * static_cast<std::size_t>(s.layout.stages) *
                static_cast<std::size_t>(per_path_)),
        rank_of_slot_(s.layout.rank_of_stage.data()) {}

  struct Place {
    int slot;         // its (path, stage)
    int stage;
    std::size_t row;  // its entry
  };

  /// Where chunk c is, if it is a chunk of this schedule whose stage lives on `rank`.
  [[nodiscard]] auto place_on(int rank, const Chunk& c, Place& out) const -> bool {
    if (static_cast<unsigned>(c.phase) >= phase_limit_ || static_cast<unsigned>(c.mb) >= static_cast<unsigned>(per_path_) ||
        static_cast<unsigned>(c.stage) >= static_cast<unsigned>(stages_))
      return false;
    out = place(c);
    return rank_of_slot_[out.slot] == rank;
  }
  /// Where chunk c is; c must be a chunk of this schedule.
  [[nodiscard]] auto place(const Chunk& c) const -> Place {
    const int slot = c.phase * phase_stride_ + c.stage;
    return {slot, c.stage, static_cast<std::size_t>(slot) * static_cast<std::size_t>(per_path_) +
                               static_cast<std::size_t>(c.mb)};
  }

  [[nodiscard]] auto first_stage(const Place& p) const -> bool { return p.stage == 0; }
  [[nodiscard]] auto last_stage(const Place& p) const -> bool { return p.stage == stages_ - 1; }
  /// The row of the same micro-batch one stage earlier / later along the path (not past either end).
  [[nodiscard]] auto upstream(const Place& p) const -> std::size_t { return p.row - static_cast<std::size_t>(per_path_); }
  [[nodiscard]] auto downstream(const Place& p) const -> std::size_t { return p.row + static_cast<std::size_t>(per_path_); }
  /// The rank of the stage one earlier / later along the path (not past either end).
  [[nodiscard]] auto rank_upstream(const Place& p) const -> int { return rank_of_slot_[p.slot - 1]; }
  [[nodiscard]] auto rank_downstream(const Place& p) const -> int { return rank_of_slot_[p.slot + 1]; }

  /// The rank that runs the chunk of table row `row`.
  [[nodiscard]] auto rank_of_row(std::size_t row) const -> int {
    return rank_of_slot_[row / static_cast<std::size_t>(per_path_)];
  }

  [[nodiscard]] auto chunks() const -> std::size_t { return chunks_; }
  [[nodiscard]] auto per_path() const -> int { return per_path_; }
  [[nodiscard]] auto stages() const -> int { return stages_; }

 private:
  // Without a branch per look-up: a phase is valid below phase_limit_ (one of two directions, or any
  // phase a Chunk holds on one path), and it moves the slot by phase_stride_ (a path's stages, or 0).
  unsigned phase_limit_;
  int phase_stride_;
  int stages_;
  int per_path_;
  std::size_t chunks_;
  const int* rank_of_slot_;  // the layout's rank_of_stage
};

}  // namespace pipesim::detail
