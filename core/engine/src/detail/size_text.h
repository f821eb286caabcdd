#pragma once
// A schedule's sizes as refusals quote them: "4 ranks x 8 micro-batches", with " x 2 virtual stages"
// when it has them. One wording for the op-count limit (schedule.cpp) and a run handed another
// request's schedule (run_steps.cpp).
#include <string>

#include "pipesim/schedule.h"

namespace pipesim::detail {

[[nodiscard]] auto size_text(const ScheduleParams& params) -> std::string;

}  // namespace pipesim::detail
