#pragma once
// One pass over a schedule's ops that checks the rules of chunk_rules.h and records, per chunk, which
// op ran its forward and which its backward. It is validate_schedule itself, the source of the
// engine's messages when a schedule breaks a rule or deadlocks (the engine checks the same rules as
// it runs, but only says yes or no), and the table op_inputs() reads for the exporters' arrows.
#include <string>
#include <vector>

#include "detail/chunk_rules.h"
#include "detail/once_per_run.h"
#include "pipesim/schedule.h"

namespace pipesim::detail {

inline constexpr int no_op = -1;

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

class ChunkIndex {
 public:
  /// Throws Error (invalid_schedule) naming the first op that breaks a rule, as validate_schedule.
  explicit ChunkIndex(const Schedule& s);

  /// The ops whose outputs `op` on `rank` consumes, by the engine's rules.
  [[nodiscard]] auto inputs_of(const Op& op, int rank) const -> OpProducers;

 private:
  [[nodiscard]] auto forward_input(const Chunk& c) const -> Producer;
  [[nodiscard]] auto backward_input(const Chunk& c, int rank) const -> Producer;
  [[nodiscard]] auto try_record(int rank, int i, const Op& op) -> bool;
  void check_totals() const;
  // The cold paths: they run only on an invalid schedule, to say which rule it breaks.
  [[noreturn, gnu::cold, gnu::noinline]] PIPESIM_ONCE_PER_RUN void explain(int rank, int k, const Op& op) const;
  [[gnu::cold]] PIPESIM_ONCE_PER_RUN void explain_chunk(int rank, int k, const Op& op, const Chunk& c) const;
  [[noreturn, gnu::cold, gnu::noinline]] PIPESIM_ONCE_PER_RUN void explain_missing(std::size_t row) const;

  const Schedule& s_;
  ChunkGrid grid_;
  OpColumn<ChunkProgress> progress_;  // per chunk, by grid_ row
};

}  // namespace pipesim::detail
