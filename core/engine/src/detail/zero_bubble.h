#pragma once
// Sea AI Lab's handcrafted zero-bubble schedules (Zero Bubble paper, Fig. 3): ZB-H1 and ZB-H2 differ
// only in how many forwards each rank runs ahead, `ahead` x (p-1-r), and how many weight gradients it
// defers, `ahead` x r.
#include "pipesim/schedule.h"

namespace pipesim::detail {

[[nodiscard]] auto handcrafted_zero_bubble(const char* name, const ScheduleParams& p, int ahead) -> Schedule;

}  // namespace pipesim::detail
