#pragma once
// The engine: a dataflow (as-soon-as-possible) simulation of a schedule under a cost model.
#include <vector>

#include "pipesim/costs.h"
#include "pipesim/op_column.h"
#include "pipesim/schedule.h"
#include "pipesim/stage_costs.h"

namespace pipesim {

/// Why an op of the reference timing started later than its rank was free, split in layers: first
/// the wait for the receives it consumes, then the extra wait for receives committed with them that it
/// does not consume, then the extra wait for sends that had not completed (reference.h).
struct OpWait {
  double used_receive = 0;
  double unused_receive = 0;
  double send = 0;
  CommStep on = {};  ///< the request that ended the wait (its action and chunk); `compute`: no wait
  int peer = -1;     ///< the rank at the other end of that request

  [[nodiscard]] auto total() const -> double { return used_receive + unused_receive + send; }
};
/// The reference engine sizes Timeline::waits and writes every entry as its op runs (or throws): writing
/// the defaults first was a 25 MB pass on DualPipe 64 x 8192.
template <>
inline constexpr bool resize_leaves_unwritten<OpWait> = true;

/// One transfer of the reference timing, as it ran: from the moment data started to move (rendezvous:
/// both sides launched; eager, async: the send launched) until the receive completed.
struct TimedTransfer {
  int producer = -1;  ///< the op whose output moved
  int consumer = -1;  ///< the op that consumed it
  bool gradient = false;
  double start = 0;
  double end = 0;
};

/// Start and end time of every op, aligned with Schedule::ops.
struct Timeline {
  OpColumn<double> start;
  OpColumn<double> end;
  /// The op whose output this op waited for when its rank sat idle before it, or -1 when the op
  /// started as soon as its rank was free. Explains every bubble: idle time ends when this arrives.
  OpColumn<int> waited_for;
  /// Reference timing only (else empty): what each op waited for, aligned with Schedule::ops.
  OpColumn<OpWait> waits = {};
  /// Reference timing with transfers asked for (simulate_reference): every transfer between ranks, in
  /// the order their consumers ran.
  std::vector<TimedTransfer> transfers = {};
};

/// Each rank runs its ops in list order, one at a time. An op starts when its rank is free and its
/// inputs have arrived: F after the previous stage's F of its micro-batch, B/I after the next stage's
/// backward (the last stage after its own F), W after its I, FB after both halves' inputs. An input
/// from another rank arrives `comm` later. Linear in the number of ops.
/// Throws Error if the schedule is invalid or deadlocks; a deadlock names the cycle of waiting ops.
[[nodiscard]] auto simulate(const Schedule& schedule, const Costs& costs) -> Timeline;

/// The same with costs per stage and speeds per rank (stage_costs.h): each op takes its own stage's
/// duration divided by its rank's speed, an F&B follows the pairing rule, and an input from another
/// rank arrives after the latency of the stage boundary it crosses. With uniform costs it is exactly
/// simulate(schedule, costs).
[[nodiscard]] auto simulate(const Schedule& schedule, const StageCosts& costs) -> Timeline;

/// What a search over many configurations needs of one run (the planner's): measured as the ops run,
/// with no Timeline kept (no start times, no waits; an op's end lives only until its consumers read it).
/// Each value equals what measure() gives for the full run of the same schedule and costs.
struct RankSummary {
  double busy = 0;            ///< RankMetrics::busy
  int peak_activations = 0;   ///< RankMetrics::peak_activations
  double peak_weight = 0;     ///< the peak of live chunks weighed by their stage (stage_weight below)
};

struct RunSummary {
  double makespan = 0;         ///< Metrics::makespan
  double bubble_fraction = 0;  ///< Metrics::bubble_fraction
  int peak_activations = 0;    ///< Metrics::peak_activations
  std::vector<RankSummary> per_rank;
};

/// simulate() without the timeline: the summary above. `stage_weight` (empty, or one entry per stage of
/// the layout) weighs each live chunk by its stage, e.g. a stage's activation bytes; empty = 0.
[[nodiscard]] auto simulate_metrics(const Schedule& schedule, const StageCosts& costs,
                                    const std::vector<double>& stage_weight = {}) -> RunSummary;

/// The ops whose outputs one op consumes, by the engine's rules above; -1 = none. `first` is the
/// forward input of an F or FB, else the backward input (or a W's I); `second` is an FB's backward
/// input. Exporters draw transfers from this, so they cannot disagree with the simulation.
struct OpInputs {
  int first = -1;
  int second = -1;
};

/// OpInputs of every op, aligned with Schedule::ops. The schedule must pass validate_schedule.
[[nodiscard]] auto op_inputs(const Schedule& schedule) -> std::vector<OpInputs>;

}  // namespace pipesim
