#include "pipesim/sweep.h"

#include "pipesim/error.h"

namespace pipesim {

auto parse_sweep_axis(std::string_view name) -> SweepAxis {
  if (name == "micro_batches" || name == "micro-batches") return SweepAxis::micro_batches;
  if (name == "ranks") return SweepAxis::ranks;
  throw Error("sweep axis must be micro_batches or ranks, got '" + std::string(name) + "'");
}

void check_sweep_size(std::size_t points) {
  if (points > max_sweep_points)
    throw Error("a sweep takes at most " + std::to_string(max_sweep_points) + " points (got " + std::to_string(points) + ")");
}

auto sweep(const RunRequest& request, SweepAxis axis, const std::vector<int>& values) -> std::vector<SweepPoint> {
  check_sweep_size(values.size());
  std::vector<SweepPoint> points;
  points.reserve(values.size());
  for (int value : values) {
    RunRequest r = request;
    (axis == SweepAxis::micro_batches ? r.params.micro_batches : r.params.ranks) = value;
    SweepPoint p;
    p.value = value;
    try {
      const Run result = run(r);
      p.valid = true;
      p.makespan = result.metrics.makespan;
      p.bubble_fraction = result.metrics.bubble_fraction;
      p.span_bubble_fraction = result.metrics.span_bubble_fraction;
      p.max_bubble = result.metrics.max_bubble;
      p.formula_value = result.formula.value;
      p.formula_exact = result.formula.exact;
      p.peak_activations = result.metrics.peak_activations;
    } catch (const Error& e) {
      p.error = e.what();
    }
    points.push_back(std::move(p));
  }
  return points;
}

}  // namespace pipesim
