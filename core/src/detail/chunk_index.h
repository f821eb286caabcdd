#pragma once
// One pass over a schedule's ops that both checks what the engine relies on (validate_schedule's
// rules) and records, per chunk, which op produces its forward output and its input gradient. It is
// validate_schedule itself, the source of the engine's messages when a schedule breaks a rule or
// deadlocks (the engine checks the same rules as it runs, but only says yes or no), and the table
// op_inputs() reads for the exporters' transfer arrows.
#include <cstdint>
#include <string>
#include <vector>

#include "pipesim/schedule.h"

namespace pipesim::detail {

inline constexpr int no_op = -1;
inline constexpr std::size_t no_row = static_cast<std::size_t>(-1);  // row_on() of a chunk not in the tables

/// An op another op waits for, and the rank that runs it.
struct Producer {
  int op = no_op;
  int rank = no_op;
};

/// The inputs of one op: `first` is the forward input of an F or FB, else the backward input (or a
/// W's I); `second` is an FB's backward input. no_op where there is none.
struct OpProducers {
  Producer first;
  Producer second;
};

/// Throws Error (invalid_schedule) unless the schedule's shape is one the engine can index: at least
/// one rank, rank_begin splitting the op list into one range per rank, and a rank for every stage.
void check_shape(const Schedule& s);

class ChunkIndex {
 public:
  /// Throws Error (invalid_schedule) naming the first op that breaks a rule, as validate_schedule.
  explicit ChunkIndex(const Schedule& s);

  /// Where a chunk's entries are: found once per op, then each lookup for that chunk is one load.
  struct Place {
    int slot;         // its (path, stage)
    int stage;
    std::size_t row;  // its entry in the per-chunk tables
  };
  [[nodiscard]] auto place(const Chunk& c) const -> Place {
    const int slot = slot_of(c);
    return {slot, c.stage, row(slot, c.mb)};
  }

  /// What a forward at `p` consumes: the forward of the previous stage; none at the path's first stage.
  [[nodiscard]] auto forward_input(const Place& p) const -> Producer {
    if (p.stage == 0) return {};
    return {forward_[p.row - static_cast<std::size_t>(per_path_)], rank_of_slot_[p.slot - 1]};
  }
  /// What a backward at `p` on `rank` consumes: the next stage's backward; the last stage starts
  /// from its own forward, on its own rank.
  [[nodiscard]] auto backward_input(const Place& p, int rank) const -> Producer {
    if (p.stage == last_stage_) return {forward_[p.row], rank};
    return {backward_[p.row + static_cast<std::size_t>(per_path_)], rank_of_slot_[p.slot + 1]};
  }
  /// What a W at `p` on `rank` consumes: the B, I or FB that ran the chunk's backward there.
  [[nodiscard]] auto weight_input(const Place& p, int rank) const -> Producer { return {backward_[p.row], rank}; }
  /// The ops whose outputs `op` on `rank` consumes, by the engine's rules.
  [[nodiscard]] auto inputs_of(const Op& op, int rank) const -> OpProducers {
    const Place at = place(op.chunk);
    switch (op.kind) {
      case OpKind::F: return {forward_input(at), {}};
      case OpKind::B:
      case OpKind::I: return {backward_input(at, rank), {}};
      case OpKind::W: return {weight_input(at, rank), {}};
      case OpKind::FB: return {forward_input(at), backward_input(place(op.backward), rank)};
    }
    return {};
  }

 private:
  // A slot is one stage of one path; chunks of one slot are contiguous, so the neighbouring stage's
  // row is per_path_ away.
  [[nodiscard]] auto slot_of(const Chunk& c) const -> int { return (two_way_ ? c.phase : 0) * stages_ + c.stage; }
  [[nodiscard]] auto row(int slot, int mb) const -> std::size_t {
    return static_cast<std::size_t>(slot) * static_cast<std::size_t>(per_path_) + static_cast<std::size_t>(mb);
  }
  [[nodiscard]] auto index(const Chunk& c) const -> std::size_t { return row(slot_of(c), c.mb); }

  [[nodiscard]] auto row_on(int rank, const Chunk& c) const -> std::size_t;
  [[nodiscard]] auto try_record(int rank, int i, const Op& op) -> bool;
  void check_totals() const;
  // The cold paths: they run only on an invalid schedule, to say which rule it breaks.
  [[noreturn, gnu::cold, gnu::noinline]] void explain(int rank, int k, const Op& op) const;
  [[gnu::cold]] void explain_chunk(int rank, int k, const Op& op, const Chunk& c) const;
  [[noreturn, gnu::cold, gnu::noinline]] void explain_missing(std::size_t chunk) const;
  [[noreturn, gnu::cold]] void fail(int rank, int k, const Op& op, const std::string& why) const;

  const Schedule& s_;
  int directions_;
  bool two_way_;
  int stages_;
  int last_stage_;
  int per_path_;
  const int* rank_of_slot_;         // the layout's rank_of_stage, read directly in the engine's loop
  std::vector<int> forward_;        // per chunk: its F or FB, or no_op
  std::vector<int> backward_;       // per chunk: its B, I or FB, or no_op
  std::vector<std::uint8_t> flags_;  // per chunk: split (its backward was an I), weighted (its W ran)
};

}  // namespace pipesim::detail
