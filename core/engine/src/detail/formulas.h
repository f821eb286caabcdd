#pragma once
// Closed forms shared by more than one schedule.
#include "pipesim/registry.h"

namespace pipesim::detail {

/// (PP-1)(F+B) for GPipe and 1F1B; `with_comm` adds 2comm per hop (exact for GPipe).
[[nodiscard]] auto fill_drain_formula(int pp, const Costs& c, bool with_comm, std::string source) -> Formula;

/// (PP/2-1)(F&B+B-3W) for DualPipe (PP = ranks) and DualPipeV (PP = 2 x ranks).
[[nodiscard]] auto dualpipe_formula(int pp, const Costs& c) -> Formula;

}  // namespace pipesim::detail
