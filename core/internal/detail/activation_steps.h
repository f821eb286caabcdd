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

// Calls step(time, alive) once per distinct time at which rank r's live activations change, in time
// order, with the total after every change at that time (so frees and allocations at equal times net
// out, as if frees came first); a chunk counts weight(chunk) while alive (1 to count chunks). A rank
// runs its ops one after another, so its events arrive already sorted by time when read in op order;
// no sort is needed and the pass is linear. each_op(start, end) sees every op on the way, so measure()
// reads a large run's arrays once, not twice.
template <typename Weight, typename Step, typename EachOp>
void for_each_activation_step(const Schedule& schedule, const Timeline& timeline, int rank, Weight weight, Step step,
                              EachOp each_op) {
  decltype(weight(Chunk{})) alive{};
  double pending_time = 0;
  bool pending = false;
  const auto change = [&](double time, auto delta) {
    if (pending && time != pending_time) step(pending_time, alive);
    alive += delta;
    pending_time = time;
    pending = true;
  };
  for (int i = schedule.rank_begin[rank]; i < schedule.rank_begin[rank + 1]; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    const Op& op = schedule.ops[ui];
    const double start = timeline.start[ui];
    const double end = timeline.end[ui];
    each_op(start, end);
    if (has_forward(op.kind)) change(start, weight(op.chunk));
    if (frees_activation(op.kind)) change(end, -weight(op.kind == OpKind::FB ? op.backward : op.chunk));
  }
  if (pending) step(pending_time, alive);
}

}  // namespace pipesim::detail
