#include "pipesim/planner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <optional>
#include <set>

#include "detail/input_size.h"
#include "detail/json_document.h"
#include "detail/json_text.h"
#include "detail/course_files.h"
#include "detail/i18n.h"
#include "detail/model_shape.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"
#include "pipesim/model_stages.h"
#include "pipesim/registry.h"
#include "pipesim/run.h"

namespace pipesim {

namespace {

using nlohmann::json;
using detail::activation_values_per_token;
using detail::estimated_total;
using detail::moe_layers;

// ---------------------------------------------------------------------------------------------------
// Input: a strict reader, so that a typo in a key or a unit is an error, not a silent default.

auto joined(const std::vector<std::string_view>& words) -> std::string {
  std::string list;
  for (std::string_view w : words) list += (list.empty() ? "" : ", ") + std::string(w);
  return list;
}

/// Reads the fields of one JSON object; every key must be one of `allowed` (or start with '$', for
/// comments), every value of the right type and range.
class Fields {
 public:
  /// A nested object and its dotted path, for error messages.
  struct Path {
    const json* value;
    std::string path;
  };

  Fields(const json& object, std::string path, std::vector<std::string_view> allowed)
      : object_(object), path_(std::move(path)) {
    if (!object_.is_object()) throw Error(ErrorCode::bad_import, "plan input: " + label() + " must be a JSON object",
                                           {path_.empty() ? "plan.input_not_object" : "plan.not_object", {{"name", path_}}});
    for (const auto& item : object_.items()) {
      if (item.key().rfind('$', 0) == 0) continue;
      if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end())
        throw Error(ErrorCode::bad_import, "plan input: unknown key " + name(item.key()) + "; allowed keys are " + joined(allowed),
                    {"plan.unknown_key", {{"name", name(item.key())}, {"allowed", joined(allowed)}}});
    }
  }

  [[nodiscard]] auto integer(const std::string& key, long long lo, long long hi, std::optional<int> fallback) const
      -> int {
    const std::string range = "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
    const Range words{"whole", std::to_string(lo), std::to_string(hi)};
    if (!object_.contains(key)) return fallback ? *fallback : missing(key, range, words);
    const json& v = object_[key];
    const bool whole = v.is_number_integer() || (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>());
    if (!whole) out_of_range(key, range, words, v);
    const double d = v.get<double>();
    if (d < static_cast<double>(lo) || d > static_cast<double>(hi)) out_of_range(key, range, words, v);
    return static_cast<int>(d);
  }

  [[nodiscard]] auto number(const std::string& key, double lo, double hi, std::optional<double> fallback) const
      -> double {
    const std::string range = "a number from " + format_number(lo) + " to " + format_number(hi);
    const Range words{"number", format_number(lo), format_number(hi)};
    if (!object_.contains(key)) return fallback ? *fallback : missing(key, range, words);
    const json& v = object_[key];
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < lo || v.get<double>() > hi)
      out_of_range(key, range, words, v);
    return v.get<double>();
  }

  [[nodiscard]] auto text(const std::string& key, std::string fallback) const -> std::string {
    if (!object_.contains(key)) return fallback;
    if (!object_[key].is_string()) throw Error(ErrorCode::bad_import, "plan input: " + name(key) + " must be a string, got " + detail::describe_json(object_[key]),
                                                     {"plan.string", {{"name", name(key)}, {"value", detail::describe_json(object_[key])}}});
    return object_[key].get<std::string>();
  }

  /// A string that must be one of `choices`.
  [[nodiscard]] auto choice(const std::string& key, std::string fallback, const std::vector<std::string_view>& choices) const
      -> std::string {
    if (!object_.contains(key)) return fallback;
    const json& v = object_[key];
    if (v.is_string() && std::find(choices.begin(), choices.end(), v.get<std::string>()) != choices.end())
      return v.get<std::string>();
    throw Error(ErrorCode::bad_value, "plan input: " + name(key) + " must be one of " + joined(choices) + ", got " + detail::describe_json(v),
                {"plan.choice", {{"name", name(key)}, {"choices", joined(choices)}, {"value", detail::describe_json(v)}}});
  }

  [[nodiscard]] auto child(const std::string& key, bool required) const -> std::optional<Path> {
    if (!object_.contains(key)) {
      if (required)
        throw Error(ErrorCode::bad_import, "plan input: " + name(key) + " is missing (a JSON object)", {"plan.missing_object", {{"name", name(key)}}});
      return std::nullopt;
    }
    return Path{&object_[key], name(key)};
  }

 private:
  [[nodiscard]] auto label() const -> std::string { return path_.empty() ? "the input" : path_; }
  [[nodiscard]] auto name(const std::string& key) const -> std::string { return path_.empty() ? key : path_ + "." + key; }
  /// A range in words for the page's catalogue: its kind ("whole" or "number") and its bounds.
  struct Range {
    std::string kind, lo, hi;
  };
  [[noreturn]] auto missing(const std::string& key, const std::string& range, const Range& words) const -> int {
    throw Error(ErrorCode::bad_import, "plan input: " + name(key) + " is missing (" + range + ")",
                {"plan.missing_" + words.kind, {{"name", name(key)}, {"min", words.lo}, {"max", words.hi}}});
  }
  [[noreturn]] void out_of_range(const std::string& key, const std::string& range, const Range& words, const json& v) const {
    throw Error(ErrorCode::bad_value, "plan input: " + name(key) + " must be " + range + ", got " + detail::describe_json(v),
                {"plan.range_" + words.kind, {{"name", name(key)}, {"min", words.lo}, {"max", words.hi}, {"value", detail::describe_json(v)}}});
  }

  const json& object_;
  std::string path_;
};

auto read_gpu(const Fields::Path& at) -> GpuSpec {
  const Fields f(*at.value, at.path, {"name", "tflops", "memory_gb", "hbm_gb_s"});
  GpuSpec g;
  g.name = f.text("name", "GPU");
  g.tflops = f.number("tflops", 1, 1e6, std::nullopt);
  g.memory_gb = f.number("memory_gb", 1, 1e5, std::nullopt);
  g.hbm_gb_s = f.number("hbm_gb_s", 1, 1e6, g.hbm_gb_s);
  return g;
}

auto read_cluster(const Fields::Path& at) -> ClusterSpec {
  const Fields f(*at.value, at.path, {"gpus", "gpus_per_node", "gpu", "nvlink_gb_s", "ib_gb_s"});
  ClusterSpec c;
  c.gpus = f.integer("gpus", 1, 1'000'000, std::nullopt);
  c.gpus_per_node = f.integer("gpus_per_node", 1, 1024, 8);
  c.gpu = read_gpu(*f.child("gpu", true));
  c.nvlink_gb_s = f.number("nvlink_gb_s", 0.001, 1e6, std::nullopt);
  c.ib_gb_s = f.number("ib_gb_s", 0.001, 1e6, std::nullopt);
  return c;
}

auto read_model(const Fields::Path& at) -> ModelSpec {
  const Fields f(*at.value, at.path,
                 {"name", "layers", "hidden", "dense_layers", "ffn_hidden", "experts", "shared_experts", "top_k",
                  "expert_hidden", "vocab", "params_b", "active_params_b", "seq_len", "micro_batch_size",
                  "micro_batches", "pp", "ep"});
  ModelSpec m;
  m.name = f.text("name", "model");
  m.layers = f.integer("layers", 1, 100'000, std::nullopt);
  m.hidden = f.integer("hidden", 1, 1'000'000, std::nullopt);
  m.experts = f.integer("experts", 0, 1'000'000, 0);
  m.dense_layers = f.integer("dense_layers", 0, m.experts > 0 ? m.layers : 0, 0);
  m.ffn_hidden = f.integer("ffn_hidden", 0, 10'000'000, 0);
  m.shared_experts = f.integer("shared_experts", 0, 1'000'000, 0);
  m.top_k = f.integer("top_k", m.experts > 0 ? 1 : 0, m.experts, m.experts > 0 ? std::optional<int>() : 0);
  m.expert_hidden = f.integer("expert_hidden", m.experts > 0 ? 1 : 0, 10'000'000, m.experts > 0 ? std::optional<int>() : 0);
  m.vocab = f.integer("vocab", 0, 100'000'000, 32000);
  m.params = f.number("params_b", 0, 1e6, 0) * 1e9;
  m.active_params = f.number("active_params_b", 0, 1e6, 0) * 1e9;
  m.seq_len = f.integer("seq_len", 1, 100'000'000, std::nullopt);
  m.micro_batch_size = f.integer("micro_batch_size", 1, 1'000'000, 1);
  m.micro_batches = f.integer("micro_batches", 1, 4096, std::nullopt);
  m.pp = f.integer("pp", 1, max_pipeline_size, std::nullopt);
  m.ep = f.integer("ep", 0, 1'000'000, 0);
  return m;
}

auto read_assumptions(const std::optional<Fields::Path>& at) -> PlanAssumptions {
  PlanAssumptions a;
  if (!at) return a;
  const Fields f(*at->value, at->path,
                 {"mfu", "weight_bytes", "grad_bytes", "optimizer_bytes", "activation_bytes", "dispatch_bytes",
                  "combine_bytes", "comm_sms", "total_sms", "virtual_stages", "tolerance"});
  a.mfu = f.number("mfu", 0.01, 1, a.mfu);
  a.weight_bytes = f.number("weight_bytes", 0, 64, a.weight_bytes);
  a.grad_bytes = f.number("grad_bytes", 0, 64, a.grad_bytes);
  a.optimizer_bytes = f.number("optimizer_bytes", 0, 64, a.optimizer_bytes);
  a.activation_bytes = f.number("activation_bytes", 0, 64, a.activation_bytes);
  a.dispatch_bytes = f.number("dispatch_bytes", 0, 64, a.dispatch_bytes);
  a.combine_bytes = f.number("combine_bytes", 0, 64, a.combine_bytes);
  a.total_sms = f.integer("total_sms", 2, 100'000, a.total_sms);
  a.comm_sms = f.integer("comm_sms", 0, a.total_sms - 1, a.comm_sms);
  a.virtual_stages = f.integer("virtual_stages", 1, 16, a.virtual_stages);
  a.tolerance = f.number("tolerance", 0, 1, a.tolerance);
  return a;
}

/// The rules of the pipeline size when the input that set it is not the file's model.pp but
/// `ranks_name` (parse_plan_input's second form): its refusals name that input.
void check_resized_pipeline(const PlanInput& in, std::string_view ranks_name) {
  const std::string name(ranks_name), ranks = std::to_string(in.model.pp), gpus = std::to_string(in.cluster.gpus);
  if (in.model.pp < 1 || in.model.pp > max_pipeline_size)
    throw Error(ErrorCode::bad_value, name + " must be from 1 to " + std::to_string(max_pipeline_size) +
                                          " with a model file, the pipeline sizes its model.pp may give (got " + ranks + ")",
                {"model.ranks_range", {{"field", name}, {"max", std::to_string(max_pipeline_size)}, {"value", ranks}}}, "ranks");
  if (in.cluster.gpus % in.model.pp != 0)
    throw Error(ErrorCode::bad_value, name + " " + ranks + " does not divide the model file's cluster.gpus (" + gpus +
                                          "): every pipeline stage needs as many GPUs as the others",
                {"model.ranks_divide_gpus", {{"field", name}, {"ranks", ranks}, {"gpus", gpus}}}, "ranks");
}

/// Rules that involve several fields. `ranks_name` names the input that set model.pp if not the file.
void check_consistency(PlanInput& in, std::string_view ranks_name = {}) {
  ClusterSpec& c = in.cluster;
  ModelSpec& m = in.model;
  if (!ranks_name.empty()) check_resized_pipeline(in, ranks_name);
  if (c.gpus % m.pp != 0)
    throw Error(ErrorCode::bad_value, "plan input: cluster.gpus (" + std::to_string(c.gpus) + ") must be a multiple of model.pp (" +
                std::to_string(m.pp) + ")", {"plan.gpus_multiple_of_pp", {{"gpus", std::to_string(c.gpus)}, {"pp", std::to_string(m.pp)}}});
  const int per_stage = c.gpus / m.pp;
  if (m.experts == 0 && m.ep > 1) throw Error(ErrorCode::bad_value, "plan input: model.ep applies only to MoE models (model.experts > 0)", {"plan.ep_needs_experts", {}});
  if (m.ep == 0) m.ep = m.experts > 0 ? std::gcd(m.experts, per_stage) : 1;
  if (per_stage % m.ep != 0 && !ranks_name.empty())
    throw Error(ErrorCode::bad_value, std::string(ranks_name) + " " + std::to_string(m.pp) + " leaves " + std::to_string(per_stage) +
                                          " GPUs to a pipeline stage (cluster.gpus / " + std::string(ranks_name) +
                                          "), which the model file's model.ep (" + std::to_string(m.ep) + ") does not divide",
                {"model.ranks_split_ep", {{"field", std::string(ranks_name)}, {"ranks", std::to_string(m.pp)}, {"per_stage", std::to_string(per_stage)},
                                          {"ep", std::to_string(m.ep)}}}, "ranks");
  if (per_stage % m.ep != 0)
    throw Error(ErrorCode::bad_value, "plan input: model.ep (" + std::to_string(m.ep) + ") must divide the GPUs of one pipeline stage, " +
                "cluster.gpus / model.pp = " + std::to_string(per_stage),
                {"plan.ep_divides_stage", {{"ep", std::to_string(m.ep)}, {"per_stage", std::to_string(per_stage)}}});
  if (m.experts > 0 && m.ep > m.experts)
    throw Error(ErrorCode::bad_value, "plan input: model.ep (" + std::to_string(m.ep) + ") cannot exceed model.experts (" +
                std::to_string(m.experts) + ")", {"plan.ep_exceeds_experts", {{"ep", std::to_string(m.ep)}, {"experts", std::to_string(m.experts)}}});
}

// ---------------------------------------------------------------------------------------------------
// The cost model (see planner.h).

auto seconds_to_ms(double s) -> double { return s * 1000; }

// ---------------------------------------------------------------------------------------------------
// One candidate: costs per op, one run, metrics and memory.

struct Context {
  const PlanInput& in;
  const ParameterSplit& params;
  const ModelCosts& mc;
  int ep;
  int dp;
};

/// The memory of the rank that needs the most (rank_memory: each rank's stages, its own activations).
void fill_memory(const Context& ctx, const MemoryBytes& memory, PlanCandidate& out) {
  const RankBytes* heaviest = &memory.ranks.front();
  for (const RankBytes& r : memory.ranks)
    if (r.total() > heaviest->total()) heaviest = &r;
  out.heaviest_rank = static_cast<int>(heaviest - memory.ranks.data());
  out.weights_gb = heaviest->weights / 1e9;
  out.gradients_gb = heaviest->gradients / 1e9;
  out.optimizer_gb = heaviest->optimizer / 1e9;
  out.activations_gb = heaviest->activations_peak / 1e9;
  out.total_gb = heaviest->total() / 1e9;
  out.fits = out.total_gb <= ctx.in.cluster.gpu.memory_gb;
}

/// The data-parallel all-reduce after the makespan (planner.h: SearchPoint): the slowest rank's.
auto data_parallel_allreduce_ms(const ModelDivision& division, const Schedule& shape) -> double {
  const PlanInput& in = division.input;
  const int dp = in.cluster.gpus / in.model.pp;
  const int expert_dp = dp / std::max(1, in.model.ep);
  // The replicas of a stage are consecutive GPUs: one node's NVLink while they fit in a node.
  const double gb_s = dp <= in.cluster.gpus_per_node ? in.cluster.nvlink_gb_s : in.cluster.ib_gb_s;
  std::vector<double> unrouted(static_cast<std::size_t>(shape.ranks())), routed(unrouted.size());
  const auto& rank_of = shape.layout.rank_of_stage;
  for (std::size_t k = 0; k < rank_of.size(); ++k) {  // every copy of every stage
    const ModelStage& st = division.stages[k % static_cast<std::size_t>(shape.layout.stages)];
    const auto r = static_cast<std::size_t>(rank_of[k]);
    unrouted[r] += (st.params - st.routed_params) * in.assumptions.grad_bytes;
    routed[r] += st.routed_params / std::max(1, in.model.ep) * in.assumptions.grad_bytes;
  }
  double slowest = 0;
  for (std::size_t r = 0; r < unrouted.size(); ++r)
    slowest = std::max(slowest, ring_allreduce_ms(unrouted[r], dp, gb_s) + ring_allreduce_ms(routed[r], expert_dp, gb_s));
  return slowest;
}

/// One configuration as plan() and the search both price it, so that the two cannot disagree: the
/// model divided into the schedule's stages (model_request), the engine's metrics-only run with each
/// stage's own costs and activation bytes, every rank's bytes, and the all-reduce after the makespan.
struct PricedConfiguration {
  RunRequest request;      ///< the schedule and sizes, the average stage's costs and every stage's own
  ModelDivision division;
  RunSummary summary;
  MemoryBytes memory;      ///< each rank's state and its peak of live activation bytes (no curve)
  double allreduce_ms = 0;
  double iteration_ms = 0;  ///< summary.makespan + allreduce_ms
};

auto price_configuration(const PlanInput& in, const ScheduleSpec& spec, const Schedule& shape, int virtual_stages,
                         const std::vector<int>& layers) -> PricedConfiguration {
  PricedConfiguration p;
  p.request.schedule = std::string(spec.name);
  p.request.params = {in.model.pp, in.model.micro_batches, virtual_stages};
  p.division = model_request(in, p.request, shape, layers);
  // run_metrics() without building the schedule a second time: the same costs, resolved the same way.
  validate_costs(p.request.costs);
  p.summary = simulate_metrics(shape, resolve_stage_costs(p.request.costs, p.request.per_stage, shape),
                               stage_activation_bytes(p.division));
  p.memory = rank_state_bytes(p.division, shape);
  for (std::size_t r = 0; r < p.memory.ranks.size(); ++r) p.memory.ranks[r].activations_peak = p.summary.per_rank[r].peak_weight;
  p.allreduce_ms = data_parallel_allreduce_ms(p.division, shape);
  p.iteration_ms = p.summary.makespan + p.allreduce_ms;
  return p;
}

/// One schedule at the input's sizes, priced like every configuration of the search, with the
/// figures the plan's table and reasons quote.
auto candidate(const Context& ctx, const ScheduleSpec& spec) -> PlanCandidate {
  const ModelSpec& m = ctx.in.model;
  const int virtual_stages = spec.uses_virtual_stages ? ctx.in.assumptions.virtual_stages : 1;
  const Schedule shape = build_schedule(spec.name, {m.pp, m.micro_batches, virtual_stages});
  const PricedConfiguration priced = price_configuration(ctx.in, spec, shape, virtual_stages, {});
  const RunSummary& r = priced.summary;

  PlanCandidate out;
  out.schedule = priced.request.schedule;
  out.title = std::string(spec.texts.en.title);
  out.stages = shape.layout.stages;
  out.virtual_stages = virtual_stages;
  out.costs = priced.request.costs;
  for (const ModelStage& st : priced.division.stages) {
    out.stage_costs.push_back(st.costs);
    out.layers_per_stage.push_back(st.layers);
  }
  out.makespan_ms = r.makespan;
  out.allreduce_ms = priced.allreduce_ms;
  out.iteration_ms = priced.iteration_ms;
  out.bubble_fraction = r.bubble_fraction;
  double busy = 0;
  for (const RankSummary& rs : r.per_rank) busy += rs.busy;
  for (int rank = 0; rank < shape.ranks(); ++rank) out.stages_held = std::max(out.stages_held, shape.stages_held(rank));
  const double capacity = static_cast<double>(m.pp) * r.makespan;
  double compute = 0;  // each micro-batch once through every stage
  for (const ModelStage& st : priced.division.stages) compute += m.micro_batches * (st.part.forward_ms + st.part.backward_ms);
  out.compute_fraction = compute / capacity;
  out.overhead_fraction = std::max(0.0, busy - compute) / capacity;
  out.tokens_per_gpu_s = m.micro_batches * ctx.mc.tokens / (priced.iteration_ms / 1000) / m.pp;
  out.parameter_copies = shape.layout.directions;
  out.peak_activations = r.peak_activations;
  out.overlapped_pairs = static_cast<int>(
      std::count_if(shape.ops.begin(), shape.ops.end(), [](const Op& op) { return op.kind == OpKind::FB; }));
  fill_memory(ctx, priced.memory, out);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Words: every sentence the planner writes comes from core/data/planner_text.json, in the plan's
// language; the numbers in it are computed and written here.

/// For error messages, which stay English: a decimal point whatever the plan's language.
auto fixed(double v, int decimals) -> std::string {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
  return buffer;
}

using Values = std::map<std::string, std::string>;

/// The planner's strings in one language, and numbers written that language's way (pt-BR: 1,5 GB).
class Words {
 public:
  Words(const CourseData& course, std::string_view lang)
      : root_(detail::planner_text_of(course)), lang_(detail::check_language(lang)) {}

  [[nodiscard]] auto lang() const -> const std::string& { return lang_; }
  [[nodiscard]] auto reason(const std::string& key, const Values& values) const -> std::string {
    return say("reasons", key, values);
  }
  [[nodiscard]] auto text(const std::string& key, const Values& values = {}) const -> std::string {
    return say("text", key, values);
  }
  [[nodiscard]] auto say(const std::string& section, const std::string& key, const Values& values = {}) const
      -> std::string {
    const json& root = root_;
    // A missing key is a bug in core/data/, named like the other course data errors.
    if (!root.contains(section) || !root.at(section).contains(key))
      throw Error(ErrorCode::internal, "course data: planner text has no " + section + "." + key);
    return detail::fill(detail::pick(root.at(section).at(key), lang_, section + "." + key), values);
  }

  [[nodiscard]] auto num(double v, int decimals) const -> std::string { return detail::decimal(v, decimals, lang_); }
  [[nodiscard]] auto pct(double fraction) const -> std::string { return detail::percent(fraction, 1, lang_); }
  [[nodiscard]] auto gb(double v) const -> std::string { return num(v, 1) + " GB"; }
  [[nodiscard]] auto billions(double count) const -> std::string { return num(count / 1e9, 1) + "B"; }
  [[nodiscard]] auto duration(double ms) const -> std::string {
    return ms >= 10'000 ? num(ms / 1000, 2) + " s" : num(ms, 1) + " ms";
  }
  /// "1 copy", "2 copies": `key`_one or `key`_other of the "counts" section.
  [[nodiscard]] auto count(const std::string& key, double n) const -> std::string {
    return say("counts", key + (n > 1 ? "_other" : "_one"), {{"n", num(n, 0)}});
  }

 private:
  const json& root_;  ///< core/data/planner_text.json
  std::string lang_;
};

// ---------------------------------------------------------------------------------------------------
// The recommendation: reasons are sentences around numbers computed above, never canned per input.

auto find(const std::vector<PlanCandidate>& list, std::string_view name) -> const PlanCandidate* {
  for (const PlanCandidate& c : list)
    if (c.schedule == name) return &c;
  return nullptr;
}

void reason_fastest(const Plan& p, const Words& w, const PlanCandidate& pick, std::vector<std::string>& out) {
  const PlanCandidate* next = nullptr;
  for (const PlanCandidate& c : p.ranked)
    if (c.fits && c.schedule != pick.schedule) {
      next = &c;
      break;
    }
  Values v{{"pick", pick.schedule}, {"capacity", w.gb(p.input.cluster.gpu.memory_gb)},
           {"iteration", w.duration(pick.iteration_ms)}};
  if (next != nullptr) {
    v["gain"] = w.pct(1 - pick.iteration_ms / next->iteration_ms);
    v["next"] = next->schedule;
    v["next_iteration"] = w.duration(next->iteration_ms);
  }
  out.push_back(w.reason(next != nullptr ? "fastest" : "fastest_alone", v));
  // Why not the schedules that are just as fast: they cost memory.
  for (const PlanCandidate& c : p.ranked)
    if (c.fits && c.schedule != pick.schedule && c.iteration_ms <= pick.iteration_ms * (1 + p.input.assumptions.tolerance) &&
        c.total_gb > pick.total_gb)
      out.push_back(w.reason("as_fast_but_heavier", {{"other", c.schedule},
                                                     {"within", w.pct(c.iteration_ms / pick.iteration_ms - 1)},
                                                     {"extra", w.gb(c.total_gb - pick.total_gb)},
                                                     {"parameter_copies", w.count("parameter_copies", c.parameter_copies)},
                                                     {"chunks", std::to_string(c.peak_activations)},
                                                     {"stages", std::to_string(c.stages)}}));
}

void reason_lighter(const Plan& p, const Words& w, const PlanCandidate& pick, const PlanCandidate& fastest,
                    std::vector<std::string>& out) {
  out.push_back(w.reason("within_tolerance", {{"pick", pick.schedule},
                                              {"within", w.pct(pick.iteration_ms / fastest.iteration_ms - 1)},
                                              {"fastest", fastest.schedule},
                                              {"iteration", w.duration(pick.iteration_ms)},
                                              {"fastest_iteration", w.duration(fastest.iteration_ms)},
                                              {"saved", w.gb(fastest.total_gb - pick.total_gb)},
                                              {"total", w.gb(pick.total_gb)},
                                              {"fastest_total", w.gb(fastest.total_gb)},
                                              {"tolerance", w.pct(p.input.assumptions.tolerance)}}));
}

void reason_baseline(const Plan& p, const Words& w, const PlanCandidate& pick, std::vector<std::string>& out) {
  const PlanCandidate* base = find(p.ranked, "1f1b");
  if (base == nullptr || base->schedule == pick.schedule) return;
  const double gain = 1 - pick.iteration_ms / base->iteration_ms;
  out.push_back(w.reason(gain >= 0 ? "baseline_shorter" : "baseline_longer",
                         {{"baseline", base->schedule},
                          {"gain", w.pct(std::fabs(gain))},
                          {"iteration", w.duration(pick.iteration_ms)},
                          {"baseline_iteration", w.duration(base->iteration_ms)},
                          {"bubble", w.pct(pick.bubble_fraction)},
                          {"baseline_bubble", w.pct(base->bubble_fraction)},
                          {"overhead", w.pct(pick.overhead_fraction)},
                          {"baseline_overhead", w.pct(base->overhead_fraction)}}));
}

void reason_communication(const Plan& p, const Words& w, const PlanCandidate& pick, std::vector<std::string>& out) {
  const ModelCosts& mc = p.model_costs;
  if (mc.a2a_forward_ms <= 0) {
    if (find(p.ranked, "dualpipe") != nullptr) out.push_back(w.reason("dense_no_overlap", {}));
    return;
  }
  const PlanCandidate* worst = nullptr;
  for (const PlanCandidate& c : p.ranked)
    if (worst == nullptr || c.overhead_fraction > worst->overhead_fraction) worst = &c;
  Values v{{"link", mc.a2a_link},
           {"a2a", w.duration(mc.a2a_forward_ms)},
           {"forward", w.duration(mc.forward_ms)},
           {"ratio", w.num(mc.a2a_forward_ms / mc.forward_ms, 2)},
           {"pick", pick.schedule},
           {"overhead", w.pct(pick.overhead_fraction)},
           {"pairs", std::to_string(pick.overlapped_pairs)}};
  const bool other_worst = worst != nullptr && worst->schedule != pick.schedule;
  if (other_worst) {
    v["worst"] = worst->schedule;
    v["worst_overhead"] = w.pct(worst->overhead_fraction);
  }
  const char* key = !other_worst ? "a2a_alone" : pick.overlapped_pairs > 0 ? "a2a_hidden" : "a2a_compare";
  out.push_back(w.reason(key, v));
}

void reason_memory(const Plan& p, const Words& w, const PlanCandidate& pick, std::vector<std::string>& out) {
  const double cap = p.input.cluster.gpu.memory_gb;
  out.push_back(w.reason("memory", {{"pick", pick.schedule},
                                    {"total", w.gb(pick.total_gb)},
                                    {"capacity", w.gb(cap)},
                                    {"parameters", w.gb(pick.weights_gb + pick.gradients_gb + pick.optimizer_gb)},
                                    {"copies", w.count("copies", pick.parameter_copies)},
                                    {"activations", w.gb(pick.activations_gb)},
                                    {"chunks", std::to_string(pick.peak_activations)}}));
  if (pick.parameter_copies > 1) {
    const double copy = (pick.weights_gb + pick.gradients_gb) / pick.parameter_copies;
    out.push_back(w.reason(p.ep > 1 ? "second_copy_ep" : "second_copy",
                           {{"copy", w.gb(copy)},
                            {"share", w.pct(copy / cap)},
                            {"ep", std::to_string(p.ep)},
                            {"per_gpu", w.num(static_cast<double>(p.input.model.experts) / p.ep, 1)},
                            {"experts", std::to_string(p.input.model.experts)}}));
  }
  for (const PlanCandidate& c : p.ranked)
    if (!c.fits && c.iteration_ms < pick.iteration_ms) {
      out.push_back(w.reason("faster_but_too_big", {{"other", c.schedule},
                                                    {"iteration", w.duration(c.iteration_ms)},
                                                    {"total", w.gb(c.total_gb)},
                                                    {"capacity", w.gb(cap)}}));
      break;
    }
}

void recommend_when_none_fits(Plan& p, const Words& w) {
  if (p.ranked.empty()) {
    p.reasons.push_back(w.reason("none_accepts", {}));
    return;
  }
  const auto lightest = std::min_element(p.ranked.begin(), p.ranked.end(),
                                         [](const auto& a, const auto& b) { return a.total_gb < b.total_gb; });
  p.recommended = lightest->schedule;
  p.reasons.push_back(w.reason("none_fits", {{"capacity", w.gb(p.input.cluster.gpu.memory_gb)},
                                             {"lightest", lightest->schedule},
                                             {"total", w.gb(lightest->total_gb)}}));
}

void recommend(const CourseData& course, Plan& p) {
  const Words w(course, p.input.language);
  std::vector<const PlanCandidate*> fitting;
  for (const PlanCandidate& c : p.ranked)
    if (c.fits) fitting.push_back(&c);
  if (fitting.empty()) {
    recommend_when_none_fits(p, w);
    return;
  }
  const PlanCandidate& fastest = *fitting.front();  // ranked: fitting first, fastest first
  const PlanCandidate* pick = &fastest;
  for (const PlanCandidate* c : fitting)
    if (c->iteration_ms <= fastest.iteration_ms * (1 + p.input.assumptions.tolerance) && c->total_gb < pick->total_gb)
      pick = c;
  p.recommended = pick->schedule;
  if (pick == &fastest) reason_fastest(p, w, *pick, p.reasons);
  else reason_lighter(p, w, *pick, fastest, p.reasons);
  reason_baseline(p, w, *pick, p.reasons);
  reason_communication(p, w, *pick, p.reasons);
  reason_memory(p, w, *pick, p.reasons);
}

auto costs_json(const Costs& c) -> json {
  json out;
  out["F"] = c.f;
  out["B"] = c.b;
  out["W"] = c.w;
  out["FB"] = c.fb;
  out["comm"] = c.comm;
  return out;
}

/// The planner's input as the file writes it, each field checked alone (check_consistency is next).
auto read_plan_input(std::string_view whole) -> PlanInput {
  const std::string_view json_text = detail::document_text(whole, limits::max_small_json_bytes, "plan input");
  json root;
  try {
    root = detail::parse_json_within(json_text, "plan input");
  } catch (const json::exception&) {
    root = json(json::value_t::discarded);
  }
  if (root.is_discarded())
    throw Error(ErrorCode::bad_import, "plan input is not valid JSON; expected an object with \"cluster\", \"model\" and optional \"assumptions\"",
                {"plan.not_json", {}});
  const Fields top(root, "", {"cluster", "model", "assumptions", "language"});
  PlanInput in;
  in.cluster = read_cluster(*top.child("cluster", true));
  in.model = read_model(*top.child("model", true));
  in.assumptions = read_assumptions(top.child("assumptions", false));
  // An unknown language is unknown_name here as on every surface (check_language); a non-string is bad_value.
  if (root.contains("language") && !root["language"].is_string())
    throw Error(ErrorCode::bad_value, "plan input: language must be a string like \"pt-BR\", got " + detail::describe_json(root["language"]),
                {"plan.string", {{"name", "language"}, {"value", detail::describe_json(root["language"])}}});
  try {
    in.language = root.contains("language") ? detail::check_language(root["language"].get<std::string>()) : "en";
  } catch (const Error& e) {
    throw Error(e.code(), std::string("plan input: ") + e.what(), e.wording());
  }
  return in;
}

struct RankKey {
  bool fits;
  double iteration_ms;
};

/// The planner's one ranking, of the plan's candidates and of the search's points alike: those that
/// fit first, then by iteration time, ties in the order found. The positions of `keys` in that order.
auto ranked_order(const std::vector<RankKey>& keys) -> std::vector<std::size_t> {
  std::vector<std::size_t> order(keys.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (keys[a].fits != keys[b].fits) return keys[a].fits;
    return keys[a].iteration_ms < keys[b].iteration_ms;
  });
  return order;
}

/// `points` in the ranking. Sorted by their keys alone, so that the course module compiles one stable
/// sort rather than one per kind of point (issue 14: size).
template <typename Point>
void rank_by_fit_and_time(std::vector<Point>& points) {
  std::vector<RankKey> keys;
  keys.reserve(points.size());
  for (const Point& p : points) keys.push_back({p.fits, p.iteration_ms});
  std::vector<Point> ranked;
  ranked.reserve(points.size());
  for (const std::size_t i : ranked_order(keys)) ranked.push_back(std::move(points[i]));
  points = std::move(ranked);
}

}  // namespace

auto parse_plan_input(std::string_view whole) -> PlanInput {
  PlanInput in = read_plan_input(whole);
  check_consistency(in);
  return in;
}

auto parse_plan_input(std::string_view whole, int ranks, std::string_view ranks_name) -> PlanInput {
  PlanInput in = read_plan_input(whole);
  PlanInput as_written = in;
  check_consistency(as_written);
  in.model.pp = ranks;  // model.ep still as written: left to its default, it is chosen for the new stage
  check_consistency(in, ranks_name);
  return in;
}

auto parameter_split(const ModelSpec& m) -> ParameterSplit {
  ParameterSplit s;
  s.routed = moe_layers(m) * static_cast<double>(m.experts) * 3 * m.hidden * m.expert_hidden;
  s.estimated = m.params <= 0;
  s.total = s.estimated ? estimated_total(m) : m.params;
  if (s.total < s.routed)
    throw Error(ErrorCode::bad_value, "plan input: model.params_b (" + fixed(s.total / 1e9, 1) + ") is smaller than the routed experts alone (" +
                fixed(s.routed / 1e9, 1) + "B = MoE layers x experts x 3 x hidden x expert_hidden)",
                {"plan.params_below_experts", {{"params", fixed(s.total / 1e9, 1)}, {"routed", fixed(s.routed / 1e9, 1)}}});
  s.other = s.total - s.routed;
  s.active = m.active_params > 0   ? m.active_params
             : m.experts > 0 ? s.other + s.routed * m.top_k / m.experts
                             : s.total;
  return s;
}

auto stage_op_costs(const ModelCosts& part, double share, const PlanAssumptions& a) -> Costs {
  const double s = share;
  const ModelCosts& mc = part;
  Costs c;
  c.f = (mc.forward_ms + mc.a2a_forward_ms) / s;
  c.b = (mc.backward_ms + mc.a2a_backward_ms) / s;
  c.w = mc.weight_ms / s;
  // In an F&B the communication of one chunk runs under the computation of the other, on the SMs the
  // communication kernels leave free (report §3.2.1 and §3.2.2).
  const double slowdown = static_cast<double>(a.total_sms) / (a.total_sms - a.comm_sms);
  const double compute = (mc.forward_ms + mc.backward_ms) / s * slowdown;
  const double comm = (mc.a2a_forward_ms + mc.a2a_backward_ms) / s;
  c.fb = std::clamp(std::max(compute, comm), std::max(c.f, c.b), c.f + c.b);
  c.comm = mc.pp_send_ms;
  return c;
}

auto model_part_costs(const PlanInput& in, const ModelPart& part) -> ModelCosts {
  const ModelSpec& m = in.model;
  const ClusterSpec& c = in.cluster;
  const PlanAssumptions& a = in.assumptions;
  ModelCosts mc;
  mc.tokens = static_cast<double>(m.seq_len) * m.micro_batch_size;
  mc.forward_flops = mc.tokens * (2 * part.active_params + 2.0 * part.layers * m.seq_len * m.hidden);
  const double flops_per_s = c.gpu.tflops * 1e12 * a.mfu;
  const double matmul_ms = seconds_to_ms(mc.forward_flops / flops_per_s);
  // The input embedding is a lookup, priced by the bytes it moves (planner.h): the gather forward, the
  // scatter-add of the gradient rows backward, which is all weight gradient (token ids have none).
  const double rows = part.input_embedding ? mc.tokens * m.hidden : 0;
  const double hbm = c.gpu.hbm_gb_s * 1e9;
  const double gather_ms = seconds_to_ms(rows * (a.weight_bytes + a.activation_bytes) / hbm);
  const double scatter_ms = seconds_to_ms(rows * (a.activation_bytes + 2 * a.grad_bytes) / hbm);
  mc.forward_ms = matmul_ms + gather_ms;
  mc.backward_ms = 2 * matmul_ms + scatter_ms;
  mc.weight_ms = matmul_ms + scatter_ms;
  if (m.experts > 0) {
    const bool crosses_nodes = m.ep > c.gpus_per_node;
    mc.a2a_link = crosses_nodes ? "InfiniBand" : "NVLink";
    const double link = (crosses_nodes ? c.ib_gb_s : c.nvlink_gb_s) * 1e9;
    const double bytes = mc.tokens * m.top_k * m.hidden * (a.dispatch_bytes + a.combine_bytes);
    mc.a2a_forward_ms = seconds_to_ms(part.moe_layers * bytes / link);
    mc.a2a_backward_ms = mc.a2a_forward_ms;
  }
  const double pp_link = (c.gpus > c.gpus_per_node ? c.ib_gb_s : c.nvlink_gb_s) * 1e9;
  mc.pp_send_ms = seconds_to_ms(mc.tokens * m.hidden * 2 / pp_link);
  mc.activation_bytes = mc.tokens * part.activation_values_per_token * a.activation_bytes;
  return mc;
}

auto model_costs(const PlanInput& in, const ParameterSplit& params) -> ModelCosts {
  // The input embedding is counted in the active parameters but is a lookup, not a matmul.
  const double lookup = in.model.vocab > 0 ? detail::embedding_params(in.model) : 0;
  return model_part_costs(in, {std::max(0.0, params.active - lookup), in.model.layers, moe_layers(in.model),
                               activation_values_per_token(in.model), in.model.vocab > 0});
}

auto plan(const CourseData& course, const PlanInput& input) -> Plan {
  Plan p;
  p.input = input;
  p.input.language = detail::check_language(input.language);  // before the work, not after it
  p.parameters = parameter_split(input.model);
  p.model_costs = model_costs(input, p.parameters);
  p.ep = std::max(1, input.model.ep);
  p.dp = input.cluster.gpus / input.model.pp;
  const Context ctx{p.input, p.parameters, p.model_costs, p.ep, p.dp};
  for (const ScheduleSpec* spec : schedules()) {
    if (spec->given_as_text) continue;  // custom: nothing to plan
    try {
      p.ranked.push_back(candidate(ctx, *spec));
    } catch (const Error& e) {
      p.not_applicable.push_back({std::string(spec->name), e.what(), e.code(), e.wording(), e.field()});
    }
  }
  rank_by_fit_and_time(p.ranked);
  recommend(course, p);
  return p;
}

auto plan_json(const CourseData& course, const Plan& p) -> JsonDocument {
  const ModelSpec& m = p.input.model;
  const ClusterSpec& c = p.input.cluster;
  const PlanAssumptions& a = p.input.assumptions;
  const Words w(course, p.input.language);
  // Filled key by key rather than as nested initializer lists: the same sorted json, but nlohmann
  // builds an initializer list through a json_ref per element, and this function was the course
  // module's largest (31 KB of code; issue 14: size).
  json out;
  out["language"] = w.lang();
  json& input = out["input"];
  json& cluster = input["cluster"];
  cluster["gpus"] = c.gpus;
  cluster["gpus_per_node"] = c.gpus_per_node;
  json& gpu = cluster["gpu"];
  gpu["name"] = c.gpu.name;
  gpu["tflops"] = c.gpu.tflops;
  gpu["memory_gb"] = c.gpu.memory_gb;
  gpu["hbm_gb_s"] = c.gpu.hbm_gb_s;
  cluster["nvlink_gb_s"] = c.nvlink_gb_s;
  cluster["ib_gb_s"] = c.ib_gb_s;
  json& model = input["model"];
  model["name"] = m.name;
  model["layers"] = m.layers;
  model["hidden"] = m.hidden;
  model["dense_layers"] = m.dense_layers;
  model["ffn_hidden"] = m.ffn_hidden;
  model["experts"] = m.experts;
  model["shared_experts"] = m.shared_experts;
  model["top_k"] = m.top_k;
  model["expert_hidden"] = m.expert_hidden;
  model["seq_len"] = m.seq_len;
  model["micro_batch_size"] = m.micro_batch_size;
  model["micro_batches"] = m.micro_batches;
  model["pp"] = m.pp;
  model["ep"] = p.ep;
  json& assumptions = input["assumptions"];
  assumptions["mfu"] = a.mfu;
  assumptions["weight_bytes"] = a.weight_bytes;
  assumptions["grad_bytes"] = a.grad_bytes;
  assumptions["optimizer_bytes"] = a.optimizer_bytes;
  assumptions["activation_bytes"] = a.activation_bytes;
  assumptions["dispatch_bytes"] = a.dispatch_bytes;
  assumptions["combine_bytes"] = a.combine_bytes;
  assumptions["comm_sms"] = a.comm_sms;
  assumptions["total_sms"] = a.total_sms;
  assumptions["virtual_stages"] = a.virtual_stages;
  assumptions["tolerance"] = a.tolerance;
  const ModelCosts& mc = p.model_costs;
  json& estimates = out["estimates"];
  json& parameters = estimates["parameters"];
  parameters["total"] = p.parameters.total;
  parameters["routed_experts"] = p.parameters.routed;
  parameters["other"] = p.parameters.other;
  parameters["active"] = p.parameters.active;
  parameters["estimated_from_shape"] = p.parameters.estimated;
  estimates["data_parallel"] = p.dp;
  json& per_micro_batch = estimates["per_micro_batch"];
  per_micro_batch["tokens"] = mc.tokens;
  per_micro_batch["forward_flops"] = mc.forward_flops;
  per_micro_batch["forward_ms"] = mc.forward_ms;
  per_micro_batch["backward_ms"] = mc.backward_ms;
  per_micro_batch["weight_ms"] = mc.weight_ms;
  per_micro_batch["a2a_forward_ms"] = mc.a2a_forward_ms;
  per_micro_batch["a2a_backward_ms"] = mc.a2a_backward_ms;
  per_micro_batch["a2a_link"] = mc.a2a_link;
  per_micro_batch["pp_send_ms"] = mc.pp_send_ms;
  per_micro_batch["activation_gb"] = mc.activation_bytes / 1e9;
  estimates["units"] = w.say("json", "units");
  json& candidates = out["candidates"] = json::array();
  int rank = 0;
  for (const PlanCandidate& k : p.ranked) {
    json stage_costs = json::array();
    for (const Costs& sc : k.stage_costs) stage_costs.push_back(costs_json(sc));
    json& candidate = candidates.emplace_back();
    candidate["rank"] = ++rank;
    candidate["schedule"] = k.schedule;
    candidate["title"] = k.title;
    candidate["stages"] = k.stages;
    candidate["virtual_stages"] = k.virtual_stages;
    candidate["cost_ms"] = costs_json(k.costs);
    candidate["stage_cost_ms"] = std::move(stage_costs);
    candidate["layers_per_stage"] = k.layers_per_stage;
    candidate["makespan_ms"] = k.makespan_ms;
    candidate["allreduce_ms"] = k.allreduce_ms;
    candidate["iteration_ms"] = k.iteration_ms;
    candidate["bubble_fraction"] = k.bubble_fraction;
    candidate["compute_fraction"] = k.compute_fraction;
    candidate["comm_overhead_fraction"] = k.overhead_fraction;
    candidate["tokens_per_gpu_s"] = k.tokens_per_gpu_s;
    candidate["stages_held"] = k.stages_held;
    candidate["parameter_copies"] = k.parameter_copies;
    candidate["peak_activations"] = k.peak_activations;
    candidate["overlapped_pairs"] = k.overlapped_pairs;
    json& memory = candidate["memory_gb"];
    memory["weights"] = k.weights_gb;
    memory["gradients"] = k.gradients_gb;
    memory["optimizer"] = k.optimizer_gb;
    memory["activations"] = k.activations_gb;
    memory["total"] = k.total_gb;
    memory["capacity"] = c.gpu.memory_gb;
    memory["rank"] = k.heaviest_rank;
    candidate["fits"] = k.fits;
  }
  out["not_applicable"] = json::array();
  for (const NotApplicable& n : p.not_applicable) {
    json item = {{"schedule", n.schedule}, {"reason", n.reason}, {"code", code_name(n.code)}};
    if (!n.field.empty()) item["field"] = n.field;
    if (!n.wording.key.empty()) {
      json params = json::object();
      for (const auto& [name, value] : n.wording.params) params[name] = value;
      item["wording"] = {{"key", n.wording.key}, {"params", std::move(params)}};
    }
    out["not_applicable"].push_back(std::move(item));
  }
  out["recommendation"] = {{"schedule", p.recommended}, {"reasons", p.reasons}};
  return detail::document(std::move(out));
}

namespace {

/// The text view's table: a header key of planner_text.json's "text" section (or a literal "#") and a
/// least width in terminal columns; the first two columns are names and align left.
struct Column {
  const char* key;
  std::size_t width;
};
constexpr Column plan_columns[] = {{"#", 4},           {"column_schedule", 16}, {"column_stages", 6},
                                   {"column_copies", 6}, {"column_makespan", 10}, {"column_allreduce", 10},
                                   {"column_iteration", 10}, {"column_bubble", 7},
                                   {"column_compute", 8}, {"column_comm", 8},     {"column_params", 9},
                                   {"column_activations", 9}, {"column_total", 9}, {"column_fits", 5}};
constexpr std::size_t left_aligned = 2;

auto table_cells(const Plan& p, const Words& w) -> std::vector<std::vector<std::string>> {
  std::vector<std::vector<std::string>> rows(1);
  for (const Column& c : plan_columns) rows[0].push_back(c.key == std::string_view("#") ? c.key : w.text(c.key));
  int rank = 0;
  for (const PlanCandidate& k : p.ranked)
    rows.push_back({std::to_string(++rank), k.schedule, std::to_string(k.stages), w.num(k.parameter_copies, 0),
                    w.duration(k.makespan_ms), w.duration(k.allreduce_ms), w.duration(k.iteration_ms), w.pct(k.bubble_fraction), w.pct(k.compute_fraction),
                    w.pct(k.overhead_fraction), w.gb(k.weights_gb + k.gradients_gb + k.optimizer_gb),
                    w.gb(k.activations_gb), w.gb(k.total_gb), w.text(k.fits ? "yes" : "no")});
  return rows;
}

/// Padded by display width, not bytes, so that Chinese headers line up with the numbers below.
auto render_table(const Plan& p, const Words& w) -> std::string {
  const auto rows = table_cells(p, w);
  std::vector<std::size_t> widths;
  for (const Column& c : plan_columns) widths.push_back(c.width);
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], detail::columns(row[i]));
  std::string out;
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string gap(widths[i] - detail::columns(row[i]), ' ');
      out += (i == 0 ? "" : " ") + (i < left_aligned ? row[i] + gap : gap + row[i]);
    }
    out += "\n";
  }
  return out;
}

auto render_summary(const Plan& p, const Words& w) -> std::string {
  const ModelSpec& m = p.input.model;
  const ClusterSpec& c = p.input.cluster;
  const ModelCosts& mc = p.model_costs;
  std::string out = w.text("header", {{"model", m.name}, {"gpus", std::to_string(c.gpus)}, {"gpu", c.gpu.name},
                                      {"memory", w.gb(c.gpu.memory_gb)}, {"pp", std::to_string(m.pp)},
                                      {"ep", std::to_string(p.ep)}, {"dp", std::to_string(p.dp)},
                                      {"micro_batches", std::to_string(m.micro_batches)}, {"tokens", w.num(mc.tokens, 0)}});
  out += "\n" + w.text(p.parameters.estimated ? "parameters_estimated" : "parameters",
                       {{"total", w.billions(p.parameters.total)}, {"routed", w.billions(p.parameters.routed)},
                        {"active", w.billions(p.parameters.active)}});
  out += "\n" + w.text(mc.a2a_forward_ms > 0 ? "costs_moe" : "costs_dense",
                       {{"forward", w.duration(mc.forward_ms)}, {"backward", w.duration(mc.backward_ms)},
                        {"weight", w.duration(mc.weight_ms)}, {"a2a_forward", w.duration(mc.a2a_forward_ms)},
                        {"a2a_backward", w.duration(mc.a2a_backward_ms)}, {"link", mc.a2a_link},
                        {"send", w.duration(mc.pp_send_ms)}});
  return out + "\n\n";
}

}  // namespace

auto render_plan_text(const CourseData& course, const Plan& p) -> std::string {
  const Words w(course, p.input.language);
  std::string out = render_summary(p, w) + render_table(p, w);
  for (const NotApplicable& n : p.not_applicable)
    out += "     " + w.text("not_applicable", {{"schedule", n.schedule}, {"why", n.reason}}) + "\n";
  out += "\n" + w.text("recommended", {{"schedule", p.recommended.empty() ? w.text("none") : p.recommended}}) + "\n";
  for (const std::string& r : p.reasons) out += "  - " + r + "\n";
  return out;
}

auto plan_from_json(const CourseData& course, std::string_view json_text) -> JsonDocument {
  return plan_json(course, plan(course, parse_plan_input(json_text)));
}

auto plan_from_json(const CourseData& course, std::string_view json_text, std::string_view language) -> JsonDocument {
  PlanInput input = parse_plan_input(json_text);
  input.language = std::string(language);  // plan() checks it
  return plan_json(course, plan(course, input));
}

}  // namespace pipesim

// ---------------------------------------------------------------------------------------------------
// The search: every schedule x pipeline size x micro-batch size x virtual stages x layers per stage,
// each on the planner's one path (model_request) with the engine's metrics-only run.

namespace pipesim {

namespace {

/// The most ranks the default search tries: beyond it a pipeline is rarely worth its bubble.
constexpr int default_search_most_pp = 64;

auto divisors_up_to(int n, int most) -> std::vector<int> {
  std::vector<int> out;
  for (int d = 1; d <= std::min(n, most); ++d)
    if (n % d == 0) out.push_back(d);
  return out;
}

void check_search_list(const std::vector<int>& values, int lo, int hi, const char* field) {
  for (const int v : values)
    if (v < lo || v > hi)
      throw Error(ErrorCode::bad_value, std::string("plan search: ") + field + " must list whole numbers from " +
                  std::to_string(lo) + " to " + std::to_string(hi) + ", got " + std::to_string(v),
                  {"search.range", {{"name", field}, {"min", std::to_string(lo)}, {"max", std::to_string(hi)}, {"value", std::to_string(v)}}});
}

/// Balanced layers with `fewer` layers less on the first and on the last stage (Megatron lets the
/// ends, which hold the embeddings, carry fewer): empty = balanced (fewer = 0), nullopt when that
/// leaves no layout (too few stages or layers).
auto lighter_ends_layers(int layers, int stages, int fewer) -> std::optional<std::vector<int>> {
  if (fewer == 0) return std::vector<int>{};
  const int spread = layers + 2 * fewer;  // as if the ends held `fewer` layers more
  if (stages < 3 || spread < stages) return std::nullopt;
  std::vector<int> out(static_cast<std::size_t>(stages), spread / stages);
  for (int s = 1; s <= spread % stages; ++s) ++out[static_cast<std::size_t>(s)];
  out.front() -= fewer;
  out.back() -= fewer;
  if (out.front() < 0 || out.back() < 0) return std::nullopt;
  return out;
}

struct SearchAxes {
  std::vector<int> pp, micro_batch_size, virtual_stages, lighter_ends;
};

auto search_axes(const PlanInput& in, const PlanSearch& search) -> SearchAxes {
  SearchAxes a{search.pp, search.micro_batch_size, search.virtual_stages, search.lighter_ends};
  check_search_list(a.pp, 1, limits::max_ranks, "pp");
  check_search_list(a.micro_batch_size, 1, 1'000'000, "micro_batch_size");
  check_search_list(a.virtual_stages, 1, 16, "virtual_stages");
  check_search_list(a.lighter_ends, 0, 100'000, "lighter_ends");
  if (a.pp.empty()) a.pp = divisors_up_to(in.cluster.gpus, default_search_most_pp);
  if (a.micro_batch_size.empty()) a.micro_batch_size = {in.model.micro_batch_size};
  if (a.virtual_stages.empty()) a.virtual_stages = {2, 4};
  if (a.lighter_ends.empty()) a.lighter_ends = {0, 1};
  return a;
}

/// The input at one pipeline size and micro-batch size, the sequences per iteration kept; false when
/// they do not divide evenly or expert parallelism does not fit the new stage's GPUs.
auto resized(const PlanInput& in, int pp, int micro_batch_size, PlanInput& out) -> bool {
  const long long sequences =
      static_cast<long long>(in.model.micro_batches) * in.model.micro_batch_size * (in.cluster.gpus / in.model.pp);
  if (in.cluster.gpus % pp != 0) return false;
  const long long per_micro_batch = static_cast<long long>(micro_batch_size) * (in.cluster.gpus / pp);
  if (sequences % per_micro_batch != 0) return false;
  const long long micro_batches = sequences / per_micro_batch;
  if (micro_batches < 1 || micro_batches > limits::max_micro_batches) return false;
  if ((in.cluster.gpus / pp) % std::max(1, in.model.ep) != 0) return false;
  out = in;
  out.model.pp = pp;
  out.model.micro_batch_size = micro_batch_size;
  out.model.micro_batches = static_cast<int>(micro_batches);
  return true;
}

/// One configuration of the search, priced as plan() prices its candidates.
auto search_point(const PlanInput& in, const ScheduleSpec& spec, const Schedule& shape, int virtual_stages,
                  const std::vector<int>& layers) -> SearchPoint {
  const PricedConfiguration priced = price_configuration(in, spec, shape, virtual_stages, layers);
  SearchPoint p;
  p.schedule = priced.request.schedule;
  p.pp = in.model.pp;
  p.micro_batches = in.model.micro_batches;
  p.micro_batch_size = in.model.micro_batch_size;
  p.virtual_stages = virtual_stages;
  for (const ModelStage& st : priced.division.stages) {
    p.layers_per_stage.push_back(st.layers);
    p.stage_costs.push_back(st.costs);
  }
  p.makespan_ms = priced.summary.makespan;
  p.bubble_fraction = priced.summary.bubble_fraction;
  p.allreduce_ms = priced.allreduce_ms;
  p.iteration_ms = priced.iteration_ms;
  double peak = 0;
  for (const RankBytes& rank : priced.memory.ranks) peak = std::max(peak, rank.total());
  p.peak_gb = peak / 1e9;
  p.fits = peak <= priced.memory.gpu_bytes;
  return p;
}

/// What makes two configurations the same run: schedule, sizes and the layers of each stage.
auto layout_key(const SearchPoint& p) -> std::string {
  std::string key = p.schedule + "/" + std::to_string(p.pp) + "/" + std::to_string(p.micro_batch_size) + "/" +
                    std::to_string(p.virtual_stages);
  for (const int l : p.layers_per_stage) key += "," + std::to_string(l);
  return key;
}

/// Without a pipeline (pp 1) every schedule runs each micro-batch's forward then its backward on
/// one GPU, the plain training loop: 1F1B's order at one rank, run once for all of them.
constexpr std::string_view no_pipeline_schedule = "1f1b";

}  // namespace

auto ring_allreduce_ms(double bytes, int group, double gb_s) -> double {
  if (group <= 1 || bytes <= 0) return 0;
  return 2.0 * (group - 1) / group * bytes / (gb_s * 1e9) * 1000;
}

/// One combination of the search's axes.
struct Combination {
  int pp, micro_batch_size;
  const ScheduleSpec* spec;
  int virtual_stages, lighter_ends;
};

struct SearchRun::State {
  PlanInput input;
  std::vector<Combination> combinations;
  std::size_t next = 0;
  SearchResult found;
  std::set<std::string> seen;
  // The schedule the last combination ran. Lighter ends is the innermost axis, so consecutive
  // combinations often differ only in the layers of each stage, which change the costs, not the ops:
  // such a combination reuses it instead of generating it again (a generation was 18% of a search of
  // small-dense.json at pp 8, natively; half of them were repeats).
  std::optional<Schedule> last_shape;
  const ScheduleSpec* last_spec = nullptr;
  ScheduleParams last_params;  // as asked for

  auto shape_of(const ScheduleSpec& spec, const ScheduleParams& params) -> const Schedule& {
    if (!last_shape || last_spec != &spec || !(last_params == params)) {
      last_shape.reset();  // a generation that throws leaves nothing to reuse
      last_shape = build_schedule(spec.name, params);
      last_spec = &spec;
      last_params = params;
    }
    return *last_shape;
  }

  void run(const Combination& c) {
    try {
      PlanInput sized;
      if (!resized(input, c.pp, c.micro_batch_size, sized))
        throw Error(ErrorCode::bad_value, "the cluster does not divide into this pipeline size");
      const Schedule& shape = shape_of(*c.spec, {c.pp, sized.model.micro_batches, c.virtual_stages});
      const auto layers = lighter_ends_layers(sized.model.layers, shape.layout.stages, c.lighter_ends);
      if (!layers) throw Error(ErrorCode::bad_value, "no layout with lighter ends");
      SearchPoint point = search_point(sized, *c.spec, shape, c.virtual_stages, *layers);
      point.pipeline = c.pp > 1;
      point.lighter_ends = c.lighter_ends;
      if (!seen.insert(layout_key(point)).second) {
        ++found.same_layout;
        return;
      }
      found.best.push_back(std::move(point));
      ++found.configurations;
    } catch (const Error&) {
      ++found.refused;
    }
  }
};

SearchRun::SearchRun(const PlanInput& input, const PlanSearch& search) : state_(std::make_unique<State>()) {
  const SearchAxes axes = search_axes(input, search);
  state_->input = input;
  std::vector<const ScheduleSpec*> specs;
  for (const ScheduleSpec* spec : schedules())
    if (!spec->given_as_text) specs.push_back(spec);
  const ScheduleSpec* alone = &find_schedule(no_pipeline_schedule);
  for (const int pp : axes.pp)
    for (const int mbs : axes.micro_batch_size)
      for (const ScheduleSpec* spec : pp == 1 ? std::vector<const ScheduleSpec*>{alone} : specs)
        for (const int v : pp > 1 && spec->uses_virtual_stages ? axes.virtual_stages : std::vector<int>{1})
          for (const int fewer : pp == 1 ? std::vector<int>{0} : axes.lighter_ends)
            state_->combinations.push_back({pp, mbs, spec, v, fewer});
}

SearchRun::~SearchRun() = default;

auto SearchRun::step(std::size_t count) -> bool {
  for (; count > 0 && state_->next < state_->combinations.size(); --count) state_->run(state_->combinations[state_->next++]);
  return state_->next < state_->combinations.size();
}

auto SearchRun::done() const -> std::size_t { return state_->next; }
auto SearchRun::total() const -> std::size_t { return state_->combinations.size(); }

auto SearchRun::result(std::size_t keep) const -> SearchResult {
  SearchResult out = state_->found;
  rank_by_fit_and_time(out.best);
  if (out.best.size() > keep) out.best.resize(keep);
  return out;
}

auto plan_search(const PlanInput& input, const PlanSearch& search, std::size_t keep, const SearchProgress& progress)
    -> SearchResult {
  SearchRun run(input, search);
  while (run.step(1))
    if (progress && !progress(run.done(), run.total())) return run.result(keep);
  if (progress && run.total() > 0) progress(run.done(), run.total());
  return run.result(keep);
}

namespace {

auto search_tree(const SearchResult& result) -> nlohmann::json {
  nlohmann::json best = nlohmann::json::array();
  for (const SearchPoint& p : result.best) {
    nlohmann::json stage_costs = nlohmann::json::array();
    for (const Costs& c : p.stage_costs) stage_costs.push_back(costs_json(c));
    nlohmann::json& point = best.emplace_back();  // key by key, like plan_json
    point["schedule"] = p.schedule;
    point["pipeline"] = p.pipeline;
    point["pp"] = p.pp;
    point["micro_batches"] = p.micro_batches;
    point["micro_batch_size"] = p.micro_batch_size;
    point["virtual_stages"] = p.virtual_stages;
    point["lighter_ends"] = p.lighter_ends;
    point["layers_per_stage"] = p.layers_per_stage;
    point["stage_cost_ms"] = std::move(stage_costs);
    point["makespan_ms"] = p.makespan_ms;
    point["bubble_fraction"] = p.bubble_fraction;
    point["allreduce_ms"] = p.allreduce_ms;
    point["iteration_ms"] = p.iteration_ms;
    point["peak_gb"] = p.peak_gb;
    point["fits"] = p.fits;
  }
  nlohmann::json out;
  out["configurations"] = result.configurations;
  out["refused"] = result.refused;
  out["same_layout"] = result.same_layout;
  out["best"] = std::move(best);
  return out;
}

}  // namespace

auto search_json(const SearchResult& result) -> JsonDocument { return detail::document(search_tree(result)); }

auto search_json(const SearchRun& run, std::size_t keep) -> JsonDocument {
  nlohmann::json out = search_tree(run.result(keep));
  out["done"] = run.done();
  out["total"] = run.total();
  return detail::document(std::move(out));
}

}  // namespace pipesim
