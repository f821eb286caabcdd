#pragma once
// One ScheduleSpec per file in core/engine/src/schedules/, declared from detail/schedule_list.h.
#include "pipesim/registry.h"

namespace pipesim::detail {

#define PIPESIM_SCHEDULE(id) extern const ScheduleSpec id##_spec;
#include "detail/schedule_list.h"
#undef PIPESIM_SCHEDULE

/// custom's refusal of a run without its text (--schedule-file PATH), from its check() and generate()
/// and from schedule_from_text (inputs/custom.cpp) for a blank text.
[[noreturn]] void refuse_custom_without_text();

}  // namespace pipesim::detail
