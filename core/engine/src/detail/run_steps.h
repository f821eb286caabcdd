#pragma once
// The steps every run takes once its schedule is built, shared by run() (run.cpp: any schedule, either
// timing) and run_generated() (generated schedules, dataflow timing). Defined in run_steps.cpp with
// run_generated(), so that a program calling only it does not link the reference timing run() reaches.
#include "pipesim/run.h"

namespace pipesim::detail {

/// Refuses (ErrorCode::internal: the caller's bug) a schedule handed to run(request, schedule) or
/// run_generated(request, schedule) that the request does not build: generated under another name or
/// from other parameters. It would be timed and reported under the request's name. A schedule given
/// as text is what its text says, and passes.
void check_handed_in(const ScheduleSpec& spec, const Schedule& schedule, const RunRequest& request);

/// The run of `schedule` (built from `spec`) before its timeline: the spec, the schedule, its stage
/// costs and base costs resolved from the request, and the request's send mode.
[[nodiscard]] auto prepared_run(const ScheduleSpec& spec, Schedule schedule, const RunRequest& request) -> Run;

/// Fills a run whose timeline is set: its metrics, the closed form, each rank's idle split.
void measure_run(Run& run);

}  // namespace pipesim::detail
