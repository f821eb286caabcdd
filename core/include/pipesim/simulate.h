#pragma once
// The engine: a dataflow (as-soon-as-possible) simulation of a schedule under a cost model.
#include <vector>

#include "pipesim/costs.h"
#include "pipesim/schedule.h"

namespace pipesim {

/// Start and end time of every op, aligned with Schedule::ops.
struct Timeline {
  std::vector<double> start;
  std::vector<double> end;
};

/// Each rank runs its ops in list order, one at a time. An op starts when its rank is free and its
/// inputs have arrived: F after the previous stage's F of its micro-batch, B/I after the next stage's
/// backward (the last stage after its own F), W after its I, FB after both halves' inputs. An input
/// from another rank arrives `comm` later. Linear in the number of ops.
/// Throws Error if the schedule is invalid or deadlocks; a deadlock names the cycle of waiting ops.
[[nodiscard]] auto simulate(const Schedule& schedule, const Costs& costs) -> Timeline;

}  // namespace pipesim
