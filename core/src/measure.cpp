#include "pipesim/measure.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace pipesim {

namespace {

// The op after which a chunk's activation is freed: its B, or its W when the backward was split.
auto frees_activation(const Op& op) -> std::optional<Chunk> {
  switch (op.kind) {
    case OpKind::B:
    case OpKind::W: return op.chunk;
    case OpKind::FB: return op.backward;
    default: return std::nullopt;
  }
}

}  // namespace

auto activation_curve(const Schedule& schedule, const Timeline& timeline, int rank) -> std::vector<ActivationStep> {
  // (time, delta) events; frees (-1) sort before allocations (+1) at the same time.
  std::vector<std::pair<double, int>> events;
  for (int i = schedule.rank_begin[rank]; i < schedule.rank_begin[rank + 1]; ++i) {
    const Op& op = schedule.ops[static_cast<std::size_t>(i)];
    if (has_forward(op.kind)) events.emplace_back(timeline.start[static_cast<std::size_t>(i)], +1);
    if (frees_activation(op)) events.emplace_back(timeline.end[static_cast<std::size_t>(i)], -1);
  }
  std::sort(events.begin(), events.end());
  std::vector<ActivationStep> curve{{0, 0}};
  int alive = 0;
  for (const auto& [time, delta] : events) {
    alive += delta;
    if (curve.back().time == time) curve.back().alive = alive;
    else curve.push_back({time, alive});
  }
  return curve;
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
    for (int i = begin; i < end; ++i)
      rm.busy += timeline.end[static_cast<std::size_t>(i)] - timeline.start[static_cast<std::size_t>(i)];
    if (end > begin) {
      rm.first_start = timeline.start[static_cast<std::size_t>(begin)];
      rm.last_end = timeline.end[static_cast<std::size_t>(end - 1)];
    }
    for (const ActivationStep& step : activation_curve(schedule, timeline, r))
      rm.peak_activations = std::max(rm.peak_activations, step.alive);
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
