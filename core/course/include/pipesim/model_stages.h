#pragma once
// A model from a planner file (core/data/plan_examples/) divided into the stages of one schedule, so
// that `pipesim simulate --model FILE` times every op with the costs of the layers its stage holds.
//
// Layers go to stages in order (stage 0 = where a micro-batch enters, as the JSON contract counts
// stages): balanced by default, or as the user lists them (`--layers-per-stage 6,10,10,6`: Megatron
// lets the first and last stage hold fewer, or none, since they also carry the embeddings). The input
// embedding sits on the first stage, the LM head (output embedding) and the loss on the last. Each
// stage is priced with the planner's own cost model (planner.h: model_part_costs, stage_op_costs) for
// its own part of the model; there is no second cost model, and the stages add up to the planner's
// whole model.
//
// Parameters per part: a layer's parameters are those of its shape (detail/model_shape.h); when the
// input gives params_b or active_params_b, the layers' shares are scaled so that, with the two
// embeddings (vocab x hidden each), they add up to the given totals. As the planner counts it, every
// active parameter of a matmul costs 2 FLOPs per token in the forward, the LM head's included; the
// input embedding is a lookup priced by the bytes it moves (planner.h), and the loss is not priced
// apart from the LM head.
#include <optional>
#include <string_view>
#include <vector>

#include "pipesim/costs.h"
#include "pipesim/json_document.h"
#include "pipesim/planner.h"
#include "pipesim/report.h"
#include "pipesim/run.h"
#include "pipesim/schedule.h"
#include "pipesim/simulate.h"
#include "pipesim/stage_costs.h"

namespace pipesim {

struct ModelStage {
  int first_layer = 0;     ///< index of its first layer (0-based, over the whole model)
  int layers = 0;          ///< layers it holds
  int moe_layers = 0;      ///< of which MoE
  bool embedding = false;  ///< holds the input embedding (the first stage)
  bool head = false;       ///< holds the LM head and the loss (the last stage)
  ModelCosts part;         ///< the cost model for its part, per micro-batch
  Costs costs;             ///< per op, milliseconds
  double params = 0;         ///< parameters it holds, routed experts included
  double routed_params = 0;  ///< of which routed experts (divided by expert parallelism)
};

struct ModelDivision {
  PlanInput input;                ///< as parsed (model.ep filled in)
  ParameterSplit parameters;      ///< the whole model's
  std::vector<ModelStage> stages;
};

/// `layers` over `stages` as evenly as possible: each stage gets layers / stages, and the remainder
/// goes one layer each to stages 1, 2, ... (away from the embedding on stage 0). Throws Error when
/// there are fewer layers than stages (a model that fits no balanced layout).
[[nodiscard]] auto balanced_layers(int layers, int stages, std::string_view what) -> std::vector<int>;

/// Divides the model of `input` into `stages` stages: `layers_per_stage` if not empty, else balanced.
/// `what` names the schedule in refusals ("dualpipev on 4 ranks has 8 stages"). Throws Error naming
/// the field: a list of the wrong length or sum, a middle stage without layers, totals too small for
/// the embeddings.
[[nodiscard]] auto divide_model(const PlanInput& input, int stages, const std::vector<int>& layers_per_stage,
                                std::string_view what) -> ModelDivision;

/// Parses `--layers-per-stage`, e.g. "6,10,10,6". Throws Error naming the option.
[[nodiscard]] auto parse_layers_per_stage(std::string_view text) -> std::vector<int>;

/// One complete entry per stage, for CostRequest::table.
[[nodiscard]] auto stage_cost_table(const ModelDivision& division) -> std::vector<PartialCosts>;

/// The JSON contract's "model": name, units, layers per stage, which stage holds the embedding and
/// the head, and each stage's parameters.
[[nodiscard]] auto model_division_json(const ModelDivision& division) -> JsonDocument;

/// The byte model, per rank (the planner's, stage by stage): each stage it holds (DualPipe's two
/// directions each hold every stage once) brings its weights, gradients and optimizer state; routed
/// experts are divided by expert parallelism, and the optimizer state by the data-parallel degree and
/// the parameter copies (ZeRO-1: a copy is one more replica). Activations: a chunk holds its stage's
/// activation bytes from the start of its forward until its backward has finished (measure.h's rule),
/// so the curve over time weighs each live chunk by its own stage.
struct ActivationBytesStep {
  double time = 0;   ///< from this time on (the run's units)
  double bytes = 0;  ///< held
};

struct RankBytes {
  std::vector<int> stages;       ///< stages held, one entry per copy
  double weights = 0, gradients = 0, optimizer = 0;
  double activations_peak = 0;   ///< the curve's highest point
  double peak_time = 0;          ///< when it is first reached
  std::vector<ActivationBytesStep> curve;
  [[nodiscard]] auto total() const -> double { return weights + gradients + optimizer + activations_peak; }
};

struct MemoryBytes {
  double gpu_bytes = 0;  ///< one GPU's memory (cluster.gpu.memory_gb x 1e9)
  std::vector<RankBytes> ranks;
  [[nodiscard]] auto fits() const -> bool;
};

/// The state each rank holds (stages, weights, gradients, optimizer), without activations: what
/// rank_memory starts from, and what the planner (plan and search) adds its activation peaks to.
[[nodiscard]] auto rank_state_bytes(const ModelDivision& division, const Schedule& schedule) -> MemoryBytes;

/// One stage's activation bytes per micro-batch, per stage: the weights of simulate_metrics.
[[nodiscard]] auto stage_activation_bytes(const ModelDivision& division) -> std::vector<double>;

/// Bytes per rank of one simulated run of the schedule the division was made for.
[[nodiscard]] auto rank_memory(const ModelDivision& division, const Schedule& schedule, const Timeline& timeline)
    -> MemoryBytes;

/// {"gpu_bytes", "fits", "per_rank": [{"rank", "stages", "weights", "gradients", "optimizer",
/// "activations_peak", "activations_peak_time", "total", "fits"[, "activation_curve": [[time, bytes],
/// ...]]}]}, bytes as plain numbers.
[[nodiscard]] auto memory_json(const MemoryBytes& memory, bool with_curves) -> JsonDocument;

/// The sizes of a run on a model file where the user gave them (`pipesim simulate --model FILE --ranks N
/// --micro-batches M`, the course module's simulateModel with the page's ranks and micro-batches).
struct ModelFileSizes {
  std::optional<int> ranks;               ///< the pipeline size; else the file's model.pp
  std::optional<int> micro_batches;       ///< else the file's model.micro_batches
  std::string_view ranks_name = "ranks";  ///< how a refusal names the input that gave `ranks`
};

/// Reads a model file (a planner file's JSON text) for `request`, the one rule of the CLI and the module:
/// the pipeline has `sizes.ranks` ranks if given, the file's cluster and model cut into that many stages
/// (parse_plan_input's second form: its rules on cluster.gpus and model.ep checked at that size, refused
/// naming `sizes.ranks_name`), else the file's model.pp; micro-batches are `sizes.micro_batches` if given,
/// else the file's model.micro_batches. Sets request.params.ranks and micro_batches.
[[nodiscard]] auto read_model_file(std::string_view text, const ModelFileSizes& sizes, RunRequest& request) -> PlanInput;

/// Prices `request` with the model of `input`: the pipeline size is its model.pp (`request.params.ranks`
/// is set to it), the schedule's stages get the model's layers (`layers_per_stage`, else balanced),
/// `request.costs` becomes the average stage's (what the closed forms are evaluated with) and
/// `request.per_stage.table` every stage's own. Keeps the request's --stage-cost overrides and rank
/// speeds. Throws Error naming the field. The schedule is generated here (build_schedule, which refuses
/// one given as text), for a caller that does not run it; one that does builds it once and passes it
/// to the overload below.
[[nodiscard]] auto model_request(const PlanInput& input, RunRequest& request, const std::vector<int>& layers_per_stage)
    -> ModelDivision;

/// The same for a schedule already built from `request` (`shape`), which it is not built again for,
/// or read from its text (schedule_from_text), which must have model.pp ranks.
[[nodiscard]] auto model_request(const PlanInput& input, RunRequest& request, const Schedule& shape,
                                 const std::vector<int>& layers_per_stage) -> ModelDivision;

/// to_json(run) with the model's basis: "cost_basis": "model-file", "model" (model_division_json),
/// "memory" and per_rank[].memory_bytes (memory_json, each rank's activation curve too when
/// `with_curves`: the CLI's --format json, the Memory tab's summary).
[[nodiscard]] auto model_run_json(const ModelDivision& division, const Run& run, Detail detail, bool with_curves) -> JsonDocument;

}  // namespace pipesim
