#pragma once
// What a simulated timeline measures: makespan, span, bubbles, activation memory, parameters.
#include <vector>

#include "pipesim/schedule.h"
#include "pipesim/simulate.h"

namespace pipesim {

/// A stage whose parameters a rank holds, named as its ops name it (Chunk::phase and Chunk::stage).
struct HeldStage {
  int phase = 0;
  int stage = 0;
  friend bool operator==(const HeldStage&, const HeldStage&) = default;
};

/// Reference timing: the time ops waited, summed per layer of OpWait (simulate.h); all 0 in dataflow.
/// `unused_receive + send` is what the reference program loses to waits the dataflow never has.
struct WaitTotals {
  double used_receive = 0;    ///< on receives the op consumes
  double unused_receive = 0;  ///< on receives it does not consume
  double send = 0;            ///< on sends not yet completed
};

struct RankMetrics {
  double busy = 0;          ///< sum of op durations
  double bubble = 0;        ///< makespan - busy
  double first_start = 0;   ///< start of the rank's first op
  double last_end = 0;      ///< end of its last op
  int peak_activations = 0; ///< most chunks alive at once (F started, backward not finished)
  double peak_at = 0;       ///< when peak_activations is first reached
  double utilisation = 0;   ///< busy / makespan (0 for an empty run)
  int stages_held = 0;      ///< parameter copies, in stages
  std::vector<HeldStage> stages;  ///< the stages its ops run, in the order they first appear
  WaitTotals waits;         ///< its ops' waits (reference timing)
};

struct Metrics {
  double makespan = 0;              ///< global: 0 to the last op end on any rank
  double span = 0;                  ///< max over ranks of last end - first start (Sea AI Lab's measure)
  double bubble_fraction = 0;       ///< total bubble / (ranks x makespan)
  double span_bubble_fraction = 0;  ///< sum of (span - busy) / (ranks x span)
  double max_bubble = 0;            ///< largest per-rank bubble (what published formulas give)
  double max_span_bubble = 0;       ///< largest span - busy over ranks (Sea AI Lab's bubble)
  int peak_activations = 0;         ///< max over ranks
  double peak_at = 0;               ///< when the run's peak is first reached on any rank
  WaitTotals waits;                 ///< every rank's waits summed (reference timing)
  std::vector<RankMetrics> per_rank;
};

/// The simulated bubble a closed form is compared with: the largest per-rank bubble, measured over
/// the span when the formula's source measures it so (Sea AI Lab's zero-bubble papers).
[[nodiscard]] auto simulated_bubble(const Metrics& metrics, bool over_span) -> double;

/// Whether a closed form's bubble and the simulated one agree: equal up to floating-point rounding
/// (within 1e-9, relative once they exceed 1). The one tolerance rule every view reads as `agrees`.
[[nodiscard]] auto bubbles_agree(double formula, double simulated) -> bool;

/// One step of a rank's live-activation curve: from `time` on, `alive` chunks are held.
struct ActivationStep {
  double time = 0;
  int alive = 0;
};

[[nodiscard]] auto measure(const Schedule& schedule, const Timeline& timeline) -> Metrics;

/// Live activations of one rank over time. A chunk is alive from the start of its forward until its
/// backward has finished (the B, or the W when split into I + W). At equal times frees come before
/// allocations. Inside an FB the new forward's chunk is counted from the pair's start and the
/// backward's chunk is freed at its end, which is how DualPipe reaches the README's PP + 1.
[[nodiscard]] auto activation_curve(const Schedule& schedule, const Timeline& timeline, int rank)
    -> std::vector<ActivationStep>;

/// The largest `alive` of activation_curve(schedule, timeline, rank), without building the curve.
[[nodiscard]] auto peak_activations(const Schedule& schedule, const Timeline& timeline, int rank) -> int;

}  // namespace pipesim
