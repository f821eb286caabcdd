#include "pipesim/run.h"

#include "pipesim/error.h"

namespace pipesim {

namespace {

// The published closed forms assume every stage costs the same and every rank runs at one speed.
// Whether one agrees with the simulation is decided here, once, for every view.
auto closed_form(const ScheduleSpec& spec, const ScheduleParams& params, const Costs& costs, const StageCosts& stages,
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

// The schedule the request names; in reference timing with its communication program.
auto build(const ScheduleSpec& spec, const RunRequest& request) -> Schedule {
  if (spec.parse != nullptr) {  // its own SEND/RECV, if any
    try {
      return spec.parse(request.custom_schedule);
    } catch (const Error& e) {
      throw e.about("custom_schedule");
    }
  }
  return request.timing == Timing::reference ? build_schedule_with_comm(request.schedule, request.params)
                                             : build_schedule(request.schedule, request.params);
}

}  // namespace

auto run(const RunRequest& request) -> Run {
  validate_costs(request.costs);
  Run out;
  out.spec = &find_schedule(request.schedule);
  out.schedule = build(*out.spec, request);
  out.stage_costs = resolve_stage_costs(request.costs, request.per_stage, out.schedule);
  out.costs = base_stage_costs(request.costs, request.per_stage, out.schedule.layout.stages);
  out.timing = request.timing == Timing::reference && !out.schedule.comm.empty() ? Timing::reference : Timing::dataflow;
  out.sends = request.sends;
  out.timeline = out.timing == Timing::reference ? simulate_reference(out.schedule, out.stage_costs, out.sends)
                                                 : simulate(out.schedule, out.stage_costs);
  out.metrics = measure(out.schedule, out.timeline);
  out.formula = closed_form(*out.spec, out.schedule.params, out.costs, out.stage_costs, out.metrics);
  out.bubble_split = split_bubbles(out.schedule, out.timeline, out.metrics.makespan, out.formula.rank_terms);
  return out;
}

auto run_metrics(const RunRequest& request, const std::vector<double>& stage_weight) -> RunSummary {
  validate_costs(request.costs);
  const ScheduleSpec& spec = find_schedule(request.schedule);
  // Without the communication program reference timing needs: a given text's own, else none.
  const Schedule schedule = spec.parse != nullptr ? build(spec, request) : build_schedule(request.schedule, request.params);
  return simulate_metrics(schedule, resolve_stage_costs(request.costs, request.per_stage, schedule), stage_weight);
}

}  // namespace pipesim
