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
// active parameter costs 2 FLOPs per token in the forward, the embedding's included; the loss is not
// priced apart from the LM head.
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "pipesim/costs.h"
#include "pipesim/planner.h"
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
[[nodiscard]] auto model_division_json(const ModelDivision& division) -> nlohmann::json;

}  // namespace pipesim
