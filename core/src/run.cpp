#include "pipesim/run.h"

namespace pipesim {

auto run(const RunRequest& request) -> Run {
  validate_costs(request.costs);
  Run out;
  out.spec = &find_schedule(request.schedule);
  // Schedules given as text (custom) parse it; the others generate from the parameters.
  out.schedule = out.spec->parse != nullptr ? out.spec->parse(request.custom_schedule)
                                            : build_schedule(request.schedule, request.params);
  out.costs = request.costs;
  out.timeline = simulate(out.schedule, out.costs);
  out.metrics = measure(out.schedule, out.timeline);
  out.formula = out.spec->formula(out.schedule.params, request.costs);
  return out;
}

}  // namespace pipesim
