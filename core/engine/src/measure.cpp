#include "pipesim/measure.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "detail/activation_steps.h"

namespace pipesim {

namespace {

using detail::for_each_activation_step;

constexpr auto one_chunk = [](const Chunk&) { return 1; };
constexpr auto ignore_op = [](double, double) {};

/// The most (phase, stage) pairs rank r's ops can name: in a two-way layout a chunk's phase is its
/// direction, so they are the rank's slots; a one-way layout does not bound the phases of a custom
/// schedule's ops, so there is no bound.
auto most_stages_run(const Schedule& schedule, int r) -> std::size_t {
  if (schedule.layout.directions != 2) return static_cast<std::size_t>(-1);
  return static_cast<std::size_t>(std::count(schedule.layout.rank_of_stage.begin(), schedule.layout.rank_of_stage.end(), r));
}

/// The stages rank r's ops run (both halves of an FB), each once, in the order they first appear.
/// The scan stops once every stage the rank can run has appeared: a summary of a large run then reads
/// a few ops per rank instead of all of them (DualPipe: its first few).
/// A one-way layout reads all of the rank's ops, so the walk is over plain pointers and each chunk is
/// first compared with the last two stages seen, which every op of a generated schedule repeats:
/// written with the vector's find and size at every op, the loop kept its counter in memory and was
/// a third of measure()'s time on DualPipeV 64 x 8192.
auto stages_run(const Schedule& schedule, int r) -> std::vector<HeldStage> {
  std::vector<HeldStage> held;
  HeldStage recent[2] = {};  // the last two stages noted, once held has two
  const auto note = [&](const Chunk& c) {
    const HeldStage h{c.phase, c.stage};
    if (held.size() >= 2 && (h == recent[0] || h == recent[1])) return;
    recent[1] = recent[0];
    recent[0] = h;
    if (std::find(held.begin(), held.end(), h) == held.end()) held.push_back(h);
  };
  const std::size_t most = most_stages_run(schedule, r);
  const Op* const first = schedule.ops.data() + schedule.rank_begin[r];
  const Op* const last = schedule.ops.data() + schedule.rank_begin[r + 1];
  for (const Op* op = first; op != last && held.size() < most; ++op) {
    note(op->chunk);
    if (op->kind == OpKind::FB) note(op->backward);
  }
  return held;
}

// Rank r's waits per layer; nothing when the timeline has none (dataflow timing).
auto waits_of(const Schedule& schedule, const Timeline& timeline, int r) -> WaitTotals {
  WaitTotals sum;
  if (timeline.waits.empty()) return sum;
  for (int i = schedule.rank_begin[r]; i < schedule.rank_begin[r + 1]; ++i) {
    const OpWait& w = timeline.waits[static_cast<std::size_t>(i)];
    sum.used_receive += w.used_receive;
    sum.unused_receive += w.unused_receive;
    sum.send += w.send;
  }
  return sum;
}

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
        schedule, timeline, r, one_chunk,
        [&](double time, int alive) {
          if (alive <= rm.peak_activations) return;
          rm.peak_activations = alive;
          rm.peak_at = time;
        },
        [&](double start, double finish) { rm.busy += finish - start; });
    if (end > begin) {
      rm.first_start = timeline.start[static_cast<std::size_t>(begin)];
      rm.last_end = timeline.end[static_cast<std::size_t>(end - 1)];
    }
    rm.stages_held = schedule.stages_held(r);
    rm.stages = stages_run(schedule, r);
    rm.waits = waits_of(schedule, timeline, r);
    m.waits.used_receive += rm.waits.used_receive;
    m.waits.unused_receive += rm.waits.unused_receive;
    m.waits.send += rm.waits.send;
    m.makespan = std::max(m.makespan, rm.last_end);
    m.span = std::max(m.span, rm.last_end - rm.first_start);
    if (rm.peak_activations > m.peak_activations || (rm.peak_activations == m.peak_activations && rm.peak_at < m.peak_at)) {
      m.peak_activations = rm.peak_activations;
      m.peak_at = rm.peak_at;
    }
    total_busy += rm.busy;
  }
  for (RankMetrics& rm : m.per_rank) {
    rm.bubble = m.makespan - rm.busy;
    rm.utilisation = m.makespan > 0 ? rm.busy / m.makespan : 0;
    m.max_bubble = std::max(m.max_bubble, rm.bubble);
    m.max_span_bubble = std::max(m.max_span_bubble, m.span - rm.busy);
  }
  if (m.makespan > 0) m.bubble_fraction = (ranks * m.makespan - total_busy) / (ranks * m.makespan);
  if (m.span > 0) m.span_bubble_fraction = (ranks * m.span - total_busy) / (ranks * m.span);
  return m;
}

auto simulated_bubble(const Metrics& metrics, bool over_span) -> double {
  return over_span ? metrics.max_span_bubble : metrics.max_bubble;
}

auto bubbles_agree(double formula, double simulated) -> bool {
  return std::fabs(formula - simulated) <= 1e-9 * std::max({1.0, std::fabs(formula), std::fabs(simulated)});
}

}  // namespace pipesim
