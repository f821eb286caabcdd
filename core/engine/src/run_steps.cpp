// The steps every run takes around its engine (detail/run_steps.h: the costs resolved, the metrics, the
// closed form, the idle split), and run_generated(), which is those steps around the dataflow engine.
// A file apart from run.cpp: a program that calls only run_generated() (the course module: issue 14,
// its size) does not link the reference timing, or the custom schedule's reading, that run() reaches.
#include <string>
#include <utility>

#include "detail/once_per_run.h"
#include "detail/run_steps.h"
#include "detail/size_text.h"
#include "pipesim/error.h"
#include "pipesim/registry.h"

namespace pipesim {

namespace {

// The published closed forms assume every stage costs the same and every rank runs at one speed.
// Whether one agrees with the simulation is decided here, once, for every view.
PIPESIM_ONCE_PER_RUN auto closed_form(const ScheduleSpec& spec, const ScheduleParams& params, const Costs& costs, const StageCosts& stages,
                 const Metrics& metrics) -> Formula {
  Formula f = spec.formula(params, costs);
  if (!stages.uniform()) {
    f.exact = false;
    f.condition.en += "; it assumes every stage costs the same and every rank runs at one speed, which these costs do not";
    f.condition.pt_br += "; ela supõe que todos os estágios custam o mesmo e que todos os ranks têm a mesma velocidade, "
                         "o que não vale para estes custos";
    f.condition.zh_cn += "；它假定每个阶段代价相同、每个 rank 速度相同，而当前代价并非如此";
  }
  f.simulated = simulated_bubble(metrics, f.over_span);
  f.agrees = !f.text.empty() && bubbles_agree(f.value, f.simulated);
  return f;
}

}  // namespace

namespace detail {

PIPESIM_ONCE_PER_RUN void check_handed_in(const ScheduleSpec& spec, const Schedule& schedule, const RunRequest& request) {
  if (spec.given_as_text || (schedule.name == spec.name && schedule.params == request.params)) return;
  throw Error(ErrorCode::internal, "a run of '" + std::string(spec.name) + "' at " + size_text(request.params) +
                                       " was given a schedule built for another request: '" + schedule.name + "' at " +
                                       size_text(schedule.params));
}

PIPESIM_ONCE_PER_RUN auto prepared_run(const ScheduleSpec& spec, Schedule schedule, const RunRequest& request) -> Run {
  Run out;
  out.spec = &spec;
  out.schedule = std::move(schedule);
  out.stage_costs = resolve_stage_costs(request.costs, request.per_stage, out.schedule);
  out.costs = base_stage_costs(request.costs, request.per_stage, out.schedule.layout.stages);
  out.sends = request.sends;
  return out;
}

PIPESIM_ONCE_PER_RUN void measure_run(Run& run) {
  run.metrics = measure(run.schedule, run.timeline);
  run.formula = closed_form(*run.spec, run.schedule.params, run.costs, run.stage_costs, run.metrics);
  run.bubble_split = split_bubbles(run.schedule, run.timeline, run.metrics.makespan, run.formula.rank_terms);
}

}  // namespace detail

namespace {

// run_generated() of a schedule known to be the request's.
PIPESIM_ONCE_PER_RUN auto generated_run(const RunRequest& request, const ScheduleSpec& spec, Schedule schedule) -> Run {
  Run out = detail::prepared_run(spec, std::move(schedule), request);
  out.timeline = simulate(out.schedule, out.stage_costs);
  detail::measure_run(out);
  return out;
}

}  // namespace

PIPESIM_ONCE_PER_RUN auto run_generated(const RunRequest& request) -> Run {
  validate_costs(request.costs);  // before the schedule is built, as in run()
  return generated_run(request, find_schedule(request.schedule), build_schedule(request.schedule, request.params));
}

PIPESIM_ONCE_PER_RUN auto run_generated(const RunRequest& request, Schedule schedule) -> Run {
  validate_costs(request.costs);
  check_schedule(request.schedule, request.params);  // a schedule given as text is refused, as by run_generated(request)
  const ScheduleSpec& spec = find_schedule(request.schedule);
  detail::check_handed_in(spec, schedule, request);
  return generated_run(request, spec, std::move(schedule));
}

}  // namespace pipesim
