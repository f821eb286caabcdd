#pragma once
// Costs per stage and speeds per rank: what the engine times each op with.
//
// A request gives one Costs for every stage (`--cost`), or one micro-batch through the whole model
// (`--model-cost`), which each schedule divides over its own stage count; then per-stage overrides
// (`--stage-cost`, `--stage-costs`) and per-rank speeds (`--rank-speed`). resolve_stage_costs() turns
// that into one Costs per stage of a built schedule, which is what the engine reads.
//
// Stages are counted as the JSON contract counts them (`stage` of a chunk, 0 = where a micro-batch
// enters): DualPipe on N ranks has N stages, held twice (both directions run stage s with the same
// costs); DualPipeV and ZB-V have 2N; interleaved 1F1B V x N. A stage's `comm` is the latency of the
// boundary after it (stage s to s+1, forward activations one way and gradients the other).
//
// The FB pairing rule. An overlapped F&B runs the forward of stage a with the backward of stage b. Each
// stage's own FB says how much of its shorter half the overlap hides, its overlap fraction
//   o_s = (F_s + B_s - FB_s) / min(F_s, B_s)        (0 when min(F_s, B_s) = 0)
// and a pair hides what the less-overlapping stage of the two allows:
//   FB(a, b) = F_a + B_b - min(o_a, o_b) * min(F_a, B_b).
// So FB(a, b) is FB_a when a and b cost the same, always lies in [max(F_a, B_b), F_a + B_b] (o is in
// [0, 1]), and is F_a + B_b when neither stage gives an overlap gain (FB = F + B, the default).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pipesim/costs.h"
#include "pipesim/schedule.h"

namespace pipesim {

/// Some of one stage's costs; the others come from the stage's base costs (see apply()).
struct PartialCosts {
  std::optional<double> f, b, w, fb, comm;
  /// The base with the given costs replaced. A missing FB keeps the base's overlap fraction when F or
  /// B changes (so a heavier stage overlaps as well as the others), else the base's FB. Not validated.
  [[nodiscard]] auto apply(const Costs& base) const -> Costs;
};

/// Which stage a `--stage-cost` names: an index, or the first or the last stage of the schedule.
struct StageSelector {
  enum class Kind : std::uint8_t { index, first, last };
  Kind kind = Kind::index;
  int index = 0;
};

/// One `--stage-cost STAGE:KEY=V,...`.
struct StageCostOverride {
  StageSelector stage;
  PartialCosts costs;
};

/// One `--rank-speed RANK:FACTOR`: the rank computes at FACTOR times the speed of the others (0.5 is a
/// GPU twice as slow), so its F, B, W and FB take 1/FACTOR as long; sends are not affected.
struct RankSpeed {
  int rank = 0;
  double factor = 1;
};

/// What a request says about costs beyond its one Costs.
struct CostRequest {
  /// The same model on the same GPUs. 0: the one Costs is every stage's, whatever the schedule (the
  /// basis of the DualPipe README's table). N > 0: the model is cut into N stages of the one Costs
  /// (the table and the overrides then index these N model stages), and each schedule re-cuts it into
  /// its own S stages: stage j gets the integral of the model's costs over its share
  /// [j N / S, (j+1) N / S) of the model (F, B, W and FB; comm, a boundary's latency, is that of the
  /// model boundary the stage ends in). Uniform costs become exactly N / S times the one Costs.
  /// `--model-cost` is N = 1 (its costs are the whole model's); `--model-stages N` and the page's
  /// "same model" basis (N = ranks) take the costs on screen as one of N stages.
  int model_stages = 0;
  /// One entry per stage (`--stage-costs`), each over the one Costs; empty = none. Its length must be
  /// the schedule's stage count (the model's N on the same-model basis).
  std::vector<PartialCosts> table;
  std::vector<StageCostOverride> overrides;  ///< applied in order, after the table
  std::vector<RankSpeed> rank_speeds;

  /// True when nothing but the one Costs is asked for (the common, uniform case).
  [[nodiscard]] auto uniform() const -> bool {
    return model_stages == 0 && table.empty() && overrides.empty() && rank_speeds.empty();
  }
};

/// The costs one schedule is timed with: one Costs per stage along a path, one speed per rank.
struct StageCosts {
  std::vector<Costs> stages;       ///< [stage]; Layout::stages entries
  std::vector<double> rank_speed;  ///< [rank]; Schedule::ranks() entries, 1 = nominal
  int model_stages = 0;            ///< the basis they were derived on, as CostRequest::model_stages

  /// Every stage the same costs and every rank the nominal speed: the closed forms apply.
  [[nodiscard]] auto uniform() const -> bool;
};

/// Every stage `costs`, every rank at speed 1.
[[nodiscard]] auto uniform_stage_costs(const Costs& costs, int stages, int ranks) -> StageCosts;

/// The one Costs every stage of a schedule with `stages` stages starts from: `costs`, or on the
/// same-model basis its share of the uniform model (F, B, W and FB times model_stages / stages).
[[nodiscard]] auto base_stage_costs(const Costs& costs, const CostRequest& request, int stages) -> Costs;

/// Resolves a request's costs for a built schedule. Throws Error naming the field: a stage index or
/// rank out of range, a table of the wrong length, a factor <= 0, a stage whose costs break a rule of
/// validate_costs (the FB bounds among them).
[[nodiscard]] auto resolve_stage_costs(const Costs& costs, const CostRequest& request, const Schedule& schedule)
    -> StageCosts;

/// Throws Error (naming the stage or rank) unless every stage's costs pass validate_costs and every
/// speed is a finite number > 0; sizes must match the schedule's stages and ranks.
void validate_stage_costs(const StageCosts& costs, const Schedule& schedule);

/// The duration of an F&B pairing the forward of a stage costing `forward` with the backward of one
/// costing `backward`: the pairing rule above.
[[nodiscard]] auto pair_duration(const Costs& forward, const Costs& backward) -> double;

/// Parses one `--stage-cost` value, "STAGE:KEY=V,..." (STAGE an index, `first` or `last`; keys as
/// parse_costs). Throws Error naming the option.
[[nodiscard]] auto parse_stage_cost(std::string_view text) -> StageCostOverride;

/// Parses one `--rank-speed` value, "RANK:FACTOR". Throws Error naming the option.
[[nodiscard]] auto parse_rank_speed(std::string_view text) -> RankSpeed;

/// Parses a `--stage-costs` document: a JSON list with one object per stage, keys F, B, W, FB, comm as
/// in the JSON contract's `stage_costs` (any subset). Throws Error naming the entry.
[[nodiscard]] auto parse_stage_cost_table(std::string_view json_text) -> std::vector<PartialCosts>;

}  // namespace pipesim
