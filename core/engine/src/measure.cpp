#include "pipesim/measure.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "detail/activation_steps.h"

namespace pipesim {

namespace {

using detail::for_each_activation_step;

constexpr auto one_chunk = [](const Chunk&) { return 1; };
constexpr auto ignore_op = [](double, double) {};

}  // namespace

auto activation_curve(const Schedule& schedule, const Timeline& timeline, int rank) -> std::vector<ActivationStep> {
  std::vector<ActivationStep> curve{{0, 0}};
  for_each_activation_step(schedule, timeline, rank, one_chunk, [&](double time, int alive) {
    if (curve.back().time == time) curve.back().alive = alive;
    else curve.push_back({time, alive});
  }, ignore_op);
  return curve;
}

auto peak_activations(const Schedule& schedule, const Timeline& timeline, int rank) -> int {
  int peak = 0;
  for_each_activation_step(schedule, timeline, rank, one_chunk, [&](double, int alive) { peak = std::max(peak, alive); }, ignore_op);
  return peak;
}

auto measure(const Schedule& schedule, const Timeline& timeline) -> Metrics {
  Metrics m;
  const int ranks = schedule.ranks();
  m.per_rank.resize(static_cast<std::size_t>(ranks));
  double total_busy = 0;
  for (int r = 0; r < ranks; ++r) {
    RankMetrics& rm = m.per_rank[static_cast<std::size_t>(r)];
    const int begin = schedule.rank_begin[r];
    const int end = schedule.rank_begin[r + 1];
    for_each_activation_step(
        schedule, timeline, r, one_chunk, [&](double, int alive) { rm.peak_activations = std::max(rm.peak_activations, alive); },
        [&](double start, double finish) { rm.busy += finish - start; });
    if (end > begin) {
      rm.first_start = timeline.start[static_cast<std::size_t>(begin)];
      rm.last_end = timeline.end[static_cast<std::size_t>(end - 1)];
    }
    rm.stages_held = schedule.stages_held(r);
    m.makespan = std::max(m.makespan, rm.last_end);
    m.span = std::max(m.span, rm.last_end - rm.first_start);
    m.peak_activations = std::max(m.peak_activations, rm.peak_activations);
    total_busy += rm.busy;
  }
  for (RankMetrics& rm : m.per_rank) {
    rm.bubble = m.makespan - rm.busy;
    m.max_bubble = std::max(m.max_bubble, rm.bubble);
    m.max_span_bubble = std::max(m.max_span_bubble, m.span - rm.busy);
  }
  if (m.makespan > 0) m.bubble_fraction = (ranks * m.makespan - total_busy) / (ranks * m.makespan);
  if (m.span > 0) m.span_bubble_fraction = (ranks * m.span - total_busy) / (ranks * m.span);
  return m;
}

}  // namespace pipesim
