#include "pipesim/model_stages.h"

#include <numeric>
#include <string>

#include "detail/activation_steps.h"
#include "detail/json_document.h"
#include "detail/json_trees.h"
#include "detail/model_shape.h"
#include "detail/report_tree.h"
#include "detail/text.h"
#include "pipesim/error.h"
#include "pipesim/parse.h"
#include "pipesim/registry.h"

namespace pipesim {

namespace {

using nlohmann::json;

/// Parameters of one layer that expert parallelism does not divide: attention, a dense FFN or the
/// shared experts and the router.
auto unrouted_layer_params(const ModelSpec& m, int layer) -> double {
  if (detail::is_dense_layer(m, layer)) return detail::attention_params(m) + detail::dense_ffn_params(m);
  return detail::attention_params(m) + detail::moe_ffn_params(m) - detail::routed_params_per_moe_layer(m);
}

/// What the given totals leave for the layers once the two embeddings are taken out, as a factor on
/// the layers' shape-based share (1 when the totals are estimated from the shape).
auto layer_scale(double given, double embeddings, double from_shape, const char* field) -> double {
  if (given - embeddings <= 0 || from_shape <= 0)
    throw Error(ErrorCode::bad_value,
                std::string("model file: model.") + field + " (" + format_number(given / 1e9) +
                    "B) leaves nothing for the layers once the embeddings (2 x vocab x hidden = " + format_number(embeddings / 1e9) +
                    "B) are taken out",
                {"model.nothing_for_layers",
                 {{"name", std::string("model.") + field}, {"given", format_number(given / 1e9)}, {"embeddings", format_number(embeddings / 1e9)}}});
  return (given - embeddings) / from_shape;
}

void check_layer_list(const std::vector<int>& list, int stages, int layers, std::string_view what) {
  if (static_cast<int>(list.size()) != stages)
    throw Error(ErrorCode::bad_value,
                "--layers-per-stage lists " + std::to_string(list.size()) + " stage" + (list.size() == 1 ? "" : "s") + " but " +
                    std::string(what) + " has " + std::to_string(stages) + " stages",
                {"layers_per_stage.count", {{"listed", std::to_string(list.size())}, {"stages", std::to_string(stages)}}});
  const long long sum = std::accumulate(list.begin(), list.end(), 0LL);
  if (sum != layers)
    throw Error(ErrorCode::bad_value,
                "--layers-per-stage adds up to " + std::to_string(sum) + " layers but the model file's model.layers is " + std::to_string(layers),
                {"layers_per_stage.sum", {{"sum", std::to_string(sum)}, {"layers", std::to_string(layers)}}});
  for (int s = 1; s + 1 < stages; ++s)
    if (list[static_cast<std::size_t>(s)] == 0)
      throw Error(ErrorCode::bad_value,
                  "--layers-per-stage gives stage " + std::to_string(s) +
                      " no layers: only the first and the last stage, which hold the embeddings, may have none",
                  {"layers_per_stage.middle_empty", {{"stage", std::to_string(s)}}});
}

}  // namespace

auto balanced_layers(int layers, int stages, std::string_view what) -> std::vector<int> {
  if (layers < stages)
    throw Error(ErrorCode::bad_value,
                "model file: model.layers (" + std::to_string(layers) + ") is fewer than the " + std::to_string(stages) + " stages of " +
                    std::string(what) + ": every stage needs a layer (fewer ranks, or a schedule with fewer stages per rank)",
                {"model.fewer_layers_than_stages", {{"layers", std::to_string(layers)}, {"stages", std::to_string(stages)}}});
  std::vector<int> out(static_cast<std::size_t>(stages), layers / stages);
  const int extra = layers % stages;
  // extra < stages, so stages 1 .. extra exist.
  for (int s = 1; s <= extra; ++s) ++out[static_cast<std::size_t>(s)];
  return out;
}

auto divide_model(const PlanInput& input, int stages, const std::vector<int>& layers_per_stage, std::string_view what)
    -> ModelDivision {
  const ModelSpec& m = input.model;
  ModelDivision out;
  out.input = input;
  out.parameters = parameter_split(m);
  std::vector<int> layers = layers_per_stage;
  if (layers.empty()) layers = balanced_layers(m.layers, stages, what);
  else check_layer_list(layers, stages, m.layers, what);

  double active_shape = 0, unrouted_shape = 0;
  for (int l = 0; l < m.layers; ++l) {
    active_shape += detail::active_layer_params(m, l);
    unrouted_shape += unrouted_layer_params(m, l);
  }
  const double embeddings = 2 * detail::embedding_params(m);
  const double active_scale = layer_scale(out.parameters.active, embeddings, active_shape,
                                          m.active_params > 0 ? "active_params_b" : "params_b");
  const double unrouted_scale = layer_scale(out.parameters.other, embeddings, unrouted_shape, "params_b");

  int next = 0;
  for (int s = 0; s < stages; ++s) {
    ModelStage st;
    st.first_layer = next;
    st.layers = layers[static_cast<std::size_t>(s)];
    st.embedding = s == 0;
    st.head = s == stages - 1;
    double active = 0, unrouted = 0, activation_values = 0;
    for (int l = st.first_layer; l < st.first_layer + st.layers; ++l) {
      const bool dense = detail::is_dense_layer(m, l);
      st.moe_layers += dense ? 0 : 1;
      active += detail::active_layer_params(m, l);
      unrouted += unrouted_layer_params(m, l);
      activation_values += dense ? detail::dense_layer_activation_values(m) : detail::moe_layer_activation_values(m);
    }
    const double own_embeddings = (st.embedding ? 1 : 0) * detail::embedding_params(m) + (st.head ? 1 : 0) * detail::embedding_params(m);
    if (st.layers == 0 && m.vocab == 0)  // only a listed end stage can have no layers
      throw Error(ErrorCode::bad_value,
                  "--layers-per-stage gives stage " + std::to_string(s) +
                      " no layers, and the model has no embeddings (model.vocab is 0): the stage would do no work",
                  {"layers_per_stage.end_empty", {{"stage", std::to_string(s)}}});
    // The LM head is a matmul; the input embedding a lookup, priced by the bytes it moves (planner.h).
    const double head_params = st.head ? detail::embedding_params(m) : 0;
    st.part = model_part_costs(input, {active * active_scale + head_params, st.layers, st.moe_layers, activation_values,
                                       st.embedding && m.vocab > 0});
    st.costs = stage_op_costs(st.part, 1, input.assumptions);
    st.routed_params = st.moe_layers * detail::routed_params_per_moe_layer(m);
    st.params = unrouted * unrouted_scale + own_embeddings + st.routed_params;
    out.stages.push_back(st);
    next += st.layers;
  }
  return out;
}

auto parse_layers_per_stage(std::string_view text) -> std::vector<int> {
  std::vector<int> out;
  for (std::string_view rest = text;;) {
    const auto comma = rest.find(',');
    out.push_back(parse_whole_in("--layers-per-stage entry " + std::to_string(out.size()), detail::trim(rest.substr(0, comma)), 0,
                                 100'000));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return out;
}

auto stage_cost_table(const ModelDivision& division) -> std::vector<PartialCosts> {
  std::vector<PartialCosts> table;
  for (const ModelStage& st : division.stages) table.push_back({st.costs.f, st.costs.b, st.costs.w, st.costs.fb, st.costs.comm});
  return table;
}

auto model_division_json(const ModelDivision& division) -> JsonDocument { return detail::document(detail::model_division_tree(division)); }

auto detail::model_division_tree(const ModelDivision& division) -> json {
  json layers = json::array(), params = json::array();
  for (const ModelStage& st : division.stages) {
    layers.push_back(st.layers);
    params.push_back(st.params);
  }
  // The objects of this file are filled key by key rather than from nested initializer lists: the
  // same sorted json, less code (issue 14: the course module's size).
  json out;
  out["name"] = division.input.model.name;
  out["units"] = "ms";
  out["layers_per_stage"] = std::move(layers);
  out["embedding_stage"] = 0;
  out["head_stage"] = division.stages.size() - 1;
  out["params_per_stage"] = std::move(params);
  return out;
}

auto MemoryBytes::fits() const -> bool {
  for (const RankBytes& r : ranks)
    if (r.total() > gpu_bytes) return false;
  return true;
}

auto stage_activation_bytes(const ModelDivision& division) -> std::vector<double> {
  std::vector<double> out;
  for (const ModelStage& st : division.stages) out.push_back(st.part.activation_bytes);
  return out;
}

auto rank_state_bytes(const ModelDivision& division, const Schedule& schedule) -> MemoryBytes {
  const PlanInput& in = division.input;
  const PlanAssumptions& a = in.assumptions;
  const double ep = in.model.ep;
  const double dp = static_cast<double>(in.cluster.gpus) / in.model.pp;
  const double expert_dp = dp / ep;
  const double copies = schedule.layout.directions;
  MemoryBytes out;
  out.gpu_bytes = in.cluster.gpu.memory_gb * 1e9;
  out.ranks.resize(static_cast<std::size_t>(schedule.ranks()));
  const auto& rank_of = schedule.layout.rank_of_stage;
  for (std::size_t k = 0; k < rank_of.size(); ++k) {
    const int stage = static_cast<int>(k) % schedule.layout.stages;
    const ModelStage& st = division.stages[static_cast<std::size_t>(stage)];
    RankBytes& r = out.ranks[static_cast<std::size_t>(rank_of[k])];
    r.stages.push_back(stage);
    const double unrouted = st.params - st.routed_params;  // on every GPU of the stage
    const double routed = st.routed_params / ep;           // this GPU's experts
    r.weights += (unrouted + routed) * a.weight_bytes;
    r.gradients += (unrouted + routed) * a.grad_bytes;
    r.optimizer += (unrouted / dp + routed / expert_dp) * a.optimizer_bytes / copies;
  }
  return out;
}

auto rank_memory(const ModelDivision& division, const Schedule& schedule, const Timeline& timeline) -> MemoryBytes {
  MemoryBytes out = rank_state_bytes(division, schedule);
  const auto chunk_bytes = [&](const Chunk& c) { return division.stages[static_cast<std::size_t>(c.stage)].part.activation_bytes; };
  for (int rank = 0; rank < schedule.ranks(); ++rank) {
    RankBytes& r = out.ranks[static_cast<std::size_t>(rank)];
    r.curve.push_back({0, 0});
    detail::for_each_activation_step(
        schedule, timeline, rank, chunk_bytes,
        [&](double time, double bytes) {
          if (r.curve.back().time == time) r.curve.back().bytes = bytes;
          else r.curve.push_back({time, bytes});
          if (bytes > r.activations_peak) {
            r.activations_peak = bytes;
            r.peak_time = time;
          }
        },
        [](double, double) {});
  }
  return out;
}

auto memory_json(const MemoryBytes& memory, bool with_curves) -> JsonDocument { return detail::document(detail::memory_tree(memory, with_curves)); }

auto detail::memory_tree(const MemoryBytes& memory, bool with_curves) -> json {
  json ranks = json::array();
  for (std::size_t i = 0; i < memory.ranks.size(); ++i) {
    const RankBytes& r = memory.ranks[i];
    json rank;
    rank["rank"] = i;
    rank["stages"] = r.stages;
    rank["weights"] = r.weights;
    rank["gradients"] = r.gradients;
    rank["optimizer"] = r.optimizer;
    rank["activations_peak"] = r.activations_peak;
    rank["activations_peak_time"] = r.peak_time;
    rank["total"] = r.total();
    rank["fits"] = r.total() <= memory.gpu_bytes;
    if (with_curves) {
      json curve = json::array();
      for (const ActivationBytesStep& s : r.curve) curve.push_back({s.time, s.bytes});
      rank["activation_curve"] = std::move(curve);
    }
    ranks.push_back(std::move(rank));
  }
  json out;
  out["gpu_bytes"] = memory.gpu_bytes;
  out["fits"] = memory.fits();
  out["per_rank"] = std::move(ranks);
  return out;
}

auto read_model_file(std::string_view text, const ModelFileSizes& sizes, RunRequest& request) -> PlanInput {
  PlanInput input = sizes.ranks ? parse_plan_input(text, *sizes.ranks, sizes.ranks_name) : parse_plan_input(text);
  request.params.ranks = input.model.pp;
  request.params.micro_batches = sizes.micro_batches.value_or(input.model.micro_batches);
  return input;
}

auto model_request(const PlanInput& input, RunRequest& request, const std::vector<int>& layers_per_stage) -> ModelDivision {
  request.params.ranks = input.model.pp;
  return model_request(input, request, build_schedule(request.schedule, request.params), layers_per_stage);
}

auto model_request(const PlanInput& input, RunRequest& request, const Schedule& shape, const std::vector<int>& layers_per_stage)
    -> ModelDivision {
  if (shape.ranks() != input.model.pp)  // a schedule given as text brings its own rank count
    throw Error(ErrorCode::usage,
                "the schedule file has " + std::to_string(shape.ranks()) + " ranks but the model file's model.pp is " + std::to_string(input.model.pp),
                {"model.schedule_ranks", {{"ranks", std::to_string(shape.ranks())}, {"pp", std::to_string(input.model.pp)}}});
  request.params.ranks = input.model.pp;
  ModelDivision division =
      divide_model(input, shape.layout.stages, layers_per_stage, shape.name + " on " + std::to_string(shape.ranks()) + " ranks");
  request.costs = stage_op_costs(model_costs(input, division.parameters), shape.layout.stages, input.assumptions);
  request.per_stage.table = stage_cost_table(division);
  return division;
}

auto model_run_json(const ModelDivision& division, const Run& run, Detail detail, bool with_curves) -> JsonDocument {
  json out = detail::report_tree(run, detail);
  out["cost_basis"] = "model-file";
  out["model"] = detail::model_division_tree(division);
  const json memory = detail::memory_tree(rank_memory(division, run.schedule, run.timeline), with_curves);
  json& summary = out["memory"];
  summary["units"] = "bytes";
  summary["gpu_bytes"] = memory["gpu_bytes"];
  summary["fits"] = memory["fits"];
  for (std::size_t r = 0; r < out["per_rank"].size(); ++r) out["per_rank"][r]["memory_bytes"] = memory["per_rank"][r];
  return detail::document(std::move(out));
}

}  // namespace pipesim
