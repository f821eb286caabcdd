#include "pipesim/run.h"

namespace pipesim {

auto run(const RunRequest& request) -> Run {
  validate_costs(request.costs);
  Run out;
  out.spec = &find_schedule(request.schedule);
  out.schedule = build_schedule(request.schedule, request.params);
  out.costs = request.costs;
  out.timeline = simulate(out.schedule, out.costs);
  out.metrics = measure(out.schedule, out.timeline);
  out.formula = out.spec->formula(request.params, request.costs);
  return out;
}

}  // namespace pipesim
