#include "pipesim/sweep.h"

#include <algorithm>

#include "pipesim/error.h"
#include "pipesim/parse.h"

namespace pipesim {

auto parse_sweep_axis(std::string_view name) -> SweepAxis {
  if (name == "micro_batches" || name == "micro-batches") return SweepAxis::micro_batches;
  if (name == "ranks") return SweepAxis::ranks;
  throw Error(ErrorCode::unknown_name, "sweep axis must be micro_batches or ranks, got '" + quoted_input(name) + "'",
              {"sweep.axis", {{"value", quoted_input(name)}}});
}

void check_sweep_size(std::size_t points) {
  if (points > max_sweep_points)
    throw Error(ErrorCode::limit_exceeded, "a sweep takes at most " + std::to_string(max_sweep_points) + " points (got " + std::to_string(points) + ")",
                {"sweep.too_many_points", {{"max", std::to_string(max_sweep_points)}, {"value", std::to_string(points)}}});
}

// Each point is checked against the limits of one run by run() itself; the sum bounds the whole sweep.
void check_sweep_work(const RunRequest& request, SweepAxis axis, const std::vector<int>& values) {
  long long chunks = 0;
  for (const int value : values) {
    ScheduleParams p = request.params;
    (axis == SweepAxis::micro_batches ? p.micro_batches : p.ranks) = value;
    if (p.ranks < 1 || p.micro_batches < 1 || p.virtual_stages < 1) continue;  // refused per point
    chunks += std::min<long long>(static_cast<long long>(p.ranks) * p.micro_batches * p.virtual_stages,
                                  limits::max_sweep_chunks + 1);
  }
  if (chunks > limits::max_sweep_chunks)
    throw Error(ErrorCode::limit_exceeded, "a sweep may simulate at most " + std::to_string(limits::max_sweep_chunks) +
                                               " ranks x micro-batches x virtual stages in all its points together (got " +
                                               std::to_string(chunks) + ")",
                {"sweep.too_much_work", {{"max", std::to_string(limits::max_sweep_chunks)}, {"value", std::to_string(chunks)}}});
}

auto sweep(const RunRequest& request, SweepAxis axis, const std::vector<int>& values) -> std::vector<SweepPoint> {
  check_sweep_size(values.size());
  check_sweep_work(request, axis, values);
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
