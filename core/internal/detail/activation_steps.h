#pragma once
// When a chunk's activations are alive on a rank, stated once: measure() counts chunks with it, the
// byte model (model_stages.cpp) weighs each chunk by its stage's activation bytes.
#include <cstddef>

#include "pipesim/schedule.h"
#include "pipesim/simulate.h"

namespace pipesim::detail {

// Whether an op frees a chunk's activation when it ends: its B, or its W when the backward was split
// (an FB frees its backward half's chunk).
constexpr auto frees_activation(OpKind kind) -> bool {
  return kind == OpKind::B || kind == OpKind::W || kind == OpKind::FB;
}

// A rank's live activations, fed one op at a time in the rank's list order (a rank runs its ops one
// after another, so its events arrive sorted by time): calls step(time, alive) once per distinct time
// at which they change, with the total after every change at that time (so frees and allocations at
// equal times net out, as if frees came first); a chunk counts weight(chunk) while alive. The one rule
// for both the measurements of a kept timeline and the engine's metrics-only runs.
template <typename Value>
class ActivationTally {
 public:
  template <typename Weight, typename Step>
  void add(const Op& op, double start, double end, Weight weight, Step step) {
    if (has_forward(op.kind)) change(start, weight(op.chunk), step);
    if (frees_activation(op.kind)) change(end, -weight(op.kind == OpKind::FB ? op.backward : op.chunk), step);
  }
  template <typename Step>
  void finish(Step step) {
    if (pending_) step(pending_time_, alive_);
  }

 private:
  template <typename Step>
  void change(double time, Value delta, Step step) {
    if (pending_ && time != pending_time_) step(pending_time_, alive_);
    alive_ += delta;
    pending_time_ = time;
    pending_ = true;
  }
  Value alive_{};
  double pending_time_ = 0;
  bool pending_ = false;
};

// Calls step(time, alive) for rank r as ActivationTally does, from a kept timeline; no sort is needed
// and the pass is linear. each_op(start, end) sees every op on the way, so measure() reads a large
// run's arrays once, not twice.
template <typename Weight, typename Step, typename EachOp>
void for_each_activation_step(const Schedule& schedule, const Timeline& timeline, int rank, Weight weight, Step step,
                              EachOp each_op) {
  ActivationTally<decltype(weight(Chunk{}))> tally;
  for (int i = schedule.rank_begin[rank]; i < schedule.rank_begin[rank + 1]; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    const double start = timeline.start[ui];
    const double end = timeline.end[ui];
    each_op(start, end);
    tally.add(schedule.ops[ui], start, end, weight, step);
  }
  tally.finish(step);
}

}  // namespace pipesim::detail
