#pragma once
// One ScheduleSpec per file in core/engine/src/schedules/, declared from detail/schedule_list.h.
#include "pipesim/registry.h"

namespace pipesim::detail {

#define PIPESIM_SCHEDULE(id) extern const ScheduleSpec id##_spec;
#include "detail/schedule_list.h"
#undef PIPESIM_SCHEDULE

}  // namespace pipesim::detail
