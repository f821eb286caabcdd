#include "pipesim/run.h"

namespace pipesim {

namespace {

// The schedule the request names; in reference timing with its communication program.
auto build(const ScheduleSpec& spec, const RunRequest& request) -> Schedule {
  if (spec.parse != nullptr) return spec.parse(request.custom_schedule);  // its own SEND/RECV, if any
  return request.timing == Timing::reference ? build_schedule_with_comm(request.schedule, request.params)
                                             : build_schedule(request.schedule, request.params);
}

}  // namespace

auto run(const RunRequest& request) -> Run {
  validate_costs(request.costs);
  Run out;
  out.spec = &find_schedule(request.schedule);
  out.schedule = build(*out.spec, request);
  out.costs = request.costs;
  out.timing = request.timing == Timing::reference && !out.schedule.comm.empty() ? Timing::reference : Timing::dataflow;
  out.sends = request.sends;
  out.timeline = out.timing == Timing::reference ? simulate_reference(out.schedule, out.costs, out.sends)
                                                 : simulate(out.schedule, out.costs);
  out.metrics = measure(out.schedule, out.timeline);
  out.formula = out.spec->formula(out.schedule.params, request.costs);
  return out;
}

}  // namespace pipesim
