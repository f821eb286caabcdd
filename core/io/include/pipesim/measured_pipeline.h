#pragma once
// A measured pipeline next to its model: one PyTorch profiler trace per rank (profile_trace.h), each
// rank's forward / backward / weight steps recognised from their record_function names, aligned on one
// clock, measured, and simulated again with per-stage costs fitted to what was measured.
//
// Op names. By default torch.distributed.pipelining's: its schedules wrap each action in
// `record_function("PP:" + str(action))`, so a forward of stage 2, micro-batch 0 is `PP:2F0`; I is the
// backward for inputs, W the weight gradient, B the full backward, and `PP:(0F7;7B3)OVERLAP_F_B` an
// overlapped pair. Other actions (SEND_F, RECV_B, UNSHARD, ...) are not computation and are skipped.
// Any other framework: an OpNaming with one regular expression per kind (F, B, I, W) whose first two
// groups are the stage and the micro-batch, e.g. {"F": "forward_step stage=(\\d+) mb=(\\d+)"}.
//
// Times. An op lasts from the first start to the last end of the kernels launched under its range
// (attribute_kernels); an op that launched no kernel is timed by its range itself. Clock::profiler
// (the default) takes every rank's timestamps as they are (Kineto's are the host's clock;
// baseTimeNanoseconds, when present, is added back), time 0 being the start of rank 0's first op.
// Clock::first_ops is for hosts whose clocks are not synchronised: each rank's first op is placed
// where the model starts it, and the rest of the rank keeps its own measured gaps.
//
// Ranks. Ordered by distributedInfo.rank when every trace has a distinct one, else in the order given
// (a folder's files by name), and numbered 0 .. n-1 as pipeline ranks.
//
// Measures, in microseconds: per rank busy (union of its ops), bubble = measured makespan - busy (as
// pipesim's bubble, measure.h), and the ops that started later than the model predicts. The model is
// the measured order of ops (a custom schedule, custom.h) simulated with costs fitted to the measured
// durations: per stage and kind the median; the engine takes one cost per kind, so the run uses the
// median over stages of those medians (B = I + W when the backward was split; FB = F + B when no pair
// was overlapped; comm = 0: transfers show up as waits, i.e. as departures).
#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

#include "pipesim/costs.h"
#include "pipesim/json_document.h"
#include "pipesim/op.h"
#include "pipesim/profile_trace.h"
#include "pipesim/run.h"

namespace pipesim {

struct OpNaming {
  struct Pattern {
    OpKind kind = OpKind::F;
    std::string text;
    std::regex regex;
  };
  std::vector<Pattern> patterns;  ///< empty: torch.distributed.pipelining's `PP:` names
};

/// Parses {"F": "REGEX", "B": "...", "I": "...", "W": "..."} (any subset, each with two groups).
/// Throws Error (bad_value) naming the key whose expression is malformed or has fewer than two groups.
[[nodiscard]] auto parse_op_naming(std::string_view json_text) -> OpNaming;

struct MeasuredOp {
  std::string action;  ///< in action notation: "2F0", "(0F7;7B3)OVERLAP_F_B"
  OpKind kind = OpKind::F;
  int stage = 0;       ///< F, B, I, W: its stage; FB: the forward half's
  double start = 0;    ///< microseconds, on the common clock, 0 = rank 0's first op
  double end = 0;
  bool timed_by_kernels = false;  ///< false: timed by its annotation (no kernel was launched under it)
};

struct MeasuredRank {
  int trace_rank = -1;  ///< distributedInfo.rank, -1 if absent
  std::vector<MeasuredOp> ops;  ///< in start order
  double busy_us = 0;
  double bubble_us = 0;
};

/// An op that started later in the measured run than in the model.
struct Departure {
  int rank = 0;
  int op = 0;  ///< index on its rank
  std::string action;
  double measured_start = 0;
  double model_start = 0;
  [[nodiscard]] auto late_by() const -> double { return measured_start - model_start; }
};

/// A median of measured durations for one stage and kind.
struct FittedCost {
  OpKind kind = OpKind::F;
  int stage = 0;
  int samples = 0;
  double median_us = 0;
};

/// How the ranks' timestamps are put on one clock (see the header comment).
enum class Clock : std::uint8_t { profiler, first_ops };

struct MeasuredPipeline {
  Clock clock = Clock::profiler;
  std::vector<MeasuredRank> per_rank;
  double makespan_us = 0;           ///< measured: time 0 to the last op end
  std::string actions;              ///< the measured order, one line per rank (custom.h)
  std::vector<FittedCost> fitted;   ///< per stage and kind, by kind then stage
  Costs costs;                      ///< what the model ran with (see the header comment)
  Run model;                        ///< the measured order simulated with `costs`
  std::vector<Departure> departures;  ///< later than the model by more than departure_tolerance_us, latest first
};

/// Lateness below this is the profiler's resolution (its timestamps are microseconds), not a departure.
inline constexpr double departure_tolerance_us = 1.0;

/// Measures a pipeline from one trace per rank. Throws Error (bad_import) naming the trace (by its
/// position) that has no op, or when the ops do not form a valid schedule.
[[nodiscard]] auto measure_pipeline(const std::vector<ProfileTrace>& traces, const OpNaming& naming = {},
                                    Clock clock = Clock::profiler) -> MeasuredPipeline;

/// The JSON `simulate --measured` prints (README.md documents it).
[[nodiscard]] auto measured_pipeline_json(const MeasuredPipeline& m) -> JsonDocument;

/// Per rank busy and bubble, the fitted costs, the sentence "your schedule with your measured costs
/// would take X; you measured Y", and the largest departures.
[[nodiscard]] auto render_measured_pipeline_text(const MeasuredPipeline& m) -> std::string;

}  // namespace pipesim
