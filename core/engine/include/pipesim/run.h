#pragma once
// One call from a request to everything the views show: the CLI and the WebAssembly module use it.
#include <string>
#include <vector>

#include "pipesim/bubble_terms.h"
#include "pipesim/costs.h"
#include "pipesim/measure.h"
#include "pipesim/reference.h"
#include "pipesim/registry.h"
#include "pipesim/schedule.h"
#include "pipesim/simulate.h"
#include "pipesim/stage_costs.h"

namespace pipesim {

struct RunRequest {
  std::string schedule = "dualpipe";
  ScheduleParams params;
  Costs costs = default_costs();
  /// Beyond the one Costs: the whole-model basis, per-stage costs, per-rank speeds (stage_costs.h).
  CostRequest per_stage = {};
  /// The schedule itself, for schedules given as text (`custom`): JSON or PyTorch action notation, see
  /// custom.h. Ignored by the others; `params` is then inferred from the text.
  std::string custom_schedule = {};
  Timing timing = Timing::dataflow;
  SendMode sends = SendMode::rendezvous;  ///< reference timing only
};

struct Run {
  const ScheduleSpec* spec = nullptr;
  Schedule schedule;
  Costs costs;             ///< the one Costs every stage starts from (a stage's share on the whole-model basis)
  StageCosts stage_costs;  ///< what each op was timed with
  Timeline timeline;
  Metrics metrics;
  Formula formula;
  /// Each rank's idle time split into the closed form's terms (index = rank), see bubble_terms.h.
  std::vector<RankBubbleSplit> bubble_split;
  /// The timing model used: `reference` as asked, except for a custom schedule whose text carries no
  /// send/receive actions, which keeps `dataflow`.
  Timing timing = Timing::dataflow;
  SendMode sends = SendMode::rendezvous;
};

/// Validates the costs, builds the schedule, simulates and measures it. Throws Error on bad input.
[[nodiscard]] auto run(const RunRequest& request) -> Run;

/// The schedule run() builds for `request`: the custom text read, else generated from the name and
/// parameters, with the communication program in reference timing. Throws Error as run() does.
[[nodiscard]] auto build_run_schedule(const RunRequest& request) -> Schedule;

/// run() of a schedule already built for `request` by build_run_schedule(): for a caller that needs
/// the schedule first (a model file is divided into its stages), so that it is built, or its text
/// read, once. A generated schedule of another name or other parameters, or one without its
/// communication program in reference timing, is refused (ErrorCode::internal: the caller's bug).
[[nodiscard]] auto run(const RunRequest& request, Schedule schedule) -> Run;

/// run() for a schedule generated from its parameters, in dataflow timing (request.timing and
/// custom_schedule are not read): the Run run() gives for such a request. What the course runs (the
/// quiz, the lessons, a model run). Apart from run() so that a program calling only this does not link
/// the reference timing run() reaches (issue 14: the course module's size). Throws Error as run()
/// does; a schedule given as text is refused by its check (it needs the text).
[[nodiscard]] auto run_generated(const RunRequest& request) -> Run;

/// run_generated() of a schedule already generated from the request's name and parameters
/// (build_schedule), as run(request, schedule) is to run(); refused as there when it was built for
/// another request, and for a schedule given as text as run_generated(request) refuses it.
[[nodiscard]] auto run_generated(const RunRequest& request, Schedule schedule) -> Run;

/// The same pipeline without the timeline, for searches over many configurations: the costs
/// validated, the schedule built, its stage costs resolved, and the engine's metrics-only path
/// (simulate_metrics; `stage_weight` as there). Dataflow timing (request.timing is not read). Throws
/// Error as run() does.
[[nodiscard]] auto run_metrics(const RunRequest& request, const std::vector<double>& stage_weight = {}) -> RunSummary;

}  // namespace pipesim
