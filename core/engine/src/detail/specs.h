#pragma once
// One ScheduleSpec per file in core/engine/src/schedules/; registry.cpp lists them in display order.
#include "pipesim/registry.h"

namespace pipesim::detail {

extern const ScheduleSpec gpipe_spec;
extern const ScheduleSpec one_f_one_b_spec;
extern const ScheduleSpec interleaved_1f1b_spec;
extern const ScheduleSpec zb_h1_spec;
extern const ScheduleSpec zb_h2_spec;
extern const ScheduleSpec zb_v_spec;
extern const ScheduleSpec dualpipe_spec;
extern const ScheduleSpec dualpipev_spec;
extern const ScheduleSpec chimera_spec;
extern const ScheduleSpec custom_spec;

}  // namespace pipesim::detail
