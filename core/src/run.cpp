#include "pipesim/run.h"

namespace pipesim {

namespace {

// The published closed forms assume every stage costs the same and every rank runs at one speed.
auto closed_form(const ScheduleSpec& spec, const ScheduleParams& params, const Costs& costs, const StageCosts& stages)
    -> Formula {
  Formula f = spec.formula(params, costs);
  if (!stages.uniform()) {
    f.exact = false;
    f.condition += "; it assumes every stage costs the same and every rank runs at one speed, which these costs do not";
  }
  return f;
}

}  // namespace

auto run(const RunRequest& request) -> Run {
  validate_costs(request.costs);
  Run out;
  out.spec = &find_schedule(request.schedule);
  // Schedules given as text (custom) parse it; the others generate from the parameters.
  out.schedule = out.spec->parse != nullptr ? out.spec->parse(request.custom_schedule)
                                            : build_schedule(request.schedule, request.params);
  out.stage_costs = resolve_stage_costs(request.costs, request.per_stage, out.schedule);
  out.costs = base_stage_costs(request.costs, request.per_stage, out.schedule.layout.stages);
  out.timeline = simulate(out.schedule, out.stage_costs);
  out.metrics = measure(out.schedule, out.timeline);
  out.formula = closed_form(*out.spec, out.schedule.params, out.costs, out.stage_costs);
  return out;
}

}  // namespace pipesim
