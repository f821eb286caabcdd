#include "pipesim/run.h"

#include <string>
#include <utility>

#include "detail/run_steps.h"
#include "pipesim/custom.h"
#include "pipesim/error.h"

namespace pipesim {

auto build_run_schedule(const RunRequest& request) -> Schedule {
  if (find_schedule(request.schedule).given_as_text) {  // its own SEND/RECV, if any
    try {
      return schedule_from_text(request.custom_schedule);
    } catch (const Error& e) {
      throw e.about("custom_schedule");
    }
  }
  return request.timing == Timing::reference ? build_schedule_with_comm(request.schedule, request.params)
                                             : build_schedule(request.schedule, request.params);
}

namespace {

// run() of a schedule known to be the request's.
auto built_run(const RunRequest& request, const ScheduleSpec& spec, Schedule schedule) -> Run {
  Run out = detail::prepared_run(spec, std::move(schedule), request);
  out.timing = request.timing == Timing::reference && !out.schedule.comm.empty() ? Timing::reference : Timing::dataflow;
  out.timeline = out.timing == Timing::reference ? simulate_reference(out.schedule, out.stage_costs, out.sends)
                                                 : simulate(out.schedule, out.stage_costs);
  detail::measure_run(out);
  return out;
}

}  // namespace

auto run(const RunRequest& request) -> Run {
  validate_costs(request.costs);  // before the schedule is built, as every run refuses bad costs first
  return built_run(request, find_schedule(request.schedule), build_run_schedule(request));
}

auto run(const RunRequest& request, Schedule schedule) -> Run {
  validate_costs(request.costs);
  const ScheduleSpec& spec = find_schedule(request.schedule);
  detail::check_handed_in(spec, schedule, request);
  // Every generated schedule has a communication program in reference timing (its own, or torch's
  // lowering): one without it was built by build_schedule(), and would be timed as dataflow unasked.
  if (request.timing == Timing::reference && !spec.given_as_text && schedule.comm.empty())
    throw Error(ErrorCode::internal, "a reference-timed run of '" + std::string(spec.name) +
                                         "' was given a schedule without its communication program: build it with build_run_schedule()");
  return built_run(request, spec, std::move(schedule));
}

auto run_metrics(const RunRequest& request, const std::vector<double>& stage_weight) -> RunSummary {
  validate_costs(request.costs);
  const ScheduleSpec& spec = find_schedule(request.schedule);
  // Without the communication program reference timing needs: a given text's own, else none.
  const Schedule schedule = spec.given_as_text ? build_run_schedule(request) : build_schedule(request.schedule, request.params);
  return simulate_metrics(schedule, resolve_stage_costs(request.costs, request.per_stage, schedule), stage_weight);
}

}  // namespace pipesim
