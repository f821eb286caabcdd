#include "pipesim/measure.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace pipesim {

namespace {

// Whether an op frees a chunk's activation when it ends: its B, or its W when the backward was split
// (an FB frees its backward half's chunk).
constexpr auto frees_activation(OpKind kind) -> bool {
  return kind == OpKind::B || kind == OpKind::W || kind == OpKind::FB;
}

// Calls step(time, alive) once per distinct time at which rank r's live activations change, in time
// order, with the count after every change at that time (so frees and allocations at equal times net
// out, as if frees came first). A rank runs its ops one after another, so its events arrive already
// sorted by time when read in op order; no sort is needed and the pass is linear. each_op(start, end)
// sees every op on the way, so measure() reads a large run's arrays once, not twice.
template <typename Step, typename EachOp>
void for_each_activation_step(const Schedule& schedule, const Timeline& timeline, int rank, Step step, EachOp each_op) {
  int alive = 0;
  double pending_time = 0;
  bool pending = false;
  const auto change = [&](double time, int delta) {
    if (pending && time != pending_time) step(pending_time, alive);
    alive += delta;
    pending_time = time;
    pending = true;
  };
  for (int i = schedule.rank_begin[rank]; i < schedule.rank_begin[rank + 1]; ++i) {
    const auto ui = static_cast<std::size_t>(i);
    const OpKind kind = schedule.ops[ui].kind;
    const double start = timeline.start[ui];
    const double end = timeline.end[ui];
    each_op(start, end);
    if (has_forward(kind)) change(start, +1);
    if (frees_activation(kind)) change(end, -1);
  }
  if (pending) step(pending_time, alive);
}

constexpr auto ignore_op = [](double, double) {};

}  // namespace

auto activation_curve(const Schedule& schedule, const Timeline& timeline, int rank) -> std::vector<ActivationStep> {
  std::vector<ActivationStep> curve{{0, 0}};
  for_each_activation_step(schedule, timeline, rank, [&](double time, int alive) {
    if (curve.back().time == time) curve.back().alive = alive;
    else curve.push_back({time, alive});
  }, ignore_op);
  return curve;
}

auto peak_activations(const Schedule& schedule, const Timeline& timeline, int rank) -> int {
  int peak = 0;
  for_each_activation_step(schedule, timeline, rank, [&](double, int alive) { peak = std::max(peak, alive); }, ignore_op);
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
        schedule, timeline, r, [&](double, int alive) { rm.peak_activations = std::max(rm.peak_activations, alive); },
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
