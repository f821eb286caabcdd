#include "pipesim/planner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <optional>

#include "pipesim/error.h"
#include "pipesim/registry.h"
#include "pipesim/run.h"

namespace pipesim {

namespace {

using nlohmann::json;

// ---------------------------------------------------------------------------------------------------
// Input: a strict reader, so that a typo in a key or a unit is an error, not a silent default.

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
    if (!object_.is_object()) throw Error("plan input: " + label() + " must be a JSON object");
    for (const auto& item : object_.items()) {
      if (item.key().rfind('$', 0) == 0) continue;
      if (std::find(allowed.begin(), allowed.end(), item.key()) == allowed.end()) {
        std::string list;
        for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        throw Error("plan input: unknown key " + name(item.key()) + "; allowed keys are " + list);
      }
    }
  }

  [[nodiscard]] auto integer(const std::string& key, long long lo, long long hi, std::optional<int> fallback) const
      -> int {
    const std::string range = "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
    if (!object_.contains(key)) return fallback ? *fallback : missing(key, range);
    const json& v = object_[key];
    const bool whole = v.is_number_integer() || (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>());
    if (!whole) throw Error("plan input: " + name(key) + " must be " + range + ", got " + v.dump());
    const double d = v.get<double>();
    if (d < static_cast<double>(lo) || d > static_cast<double>(hi))
      throw Error("plan input: " + name(key) + " must be " + range + ", got " + v.dump());
    return static_cast<int>(d);
  }

  [[nodiscard]] auto number(const std::string& key, double lo, double hi, std::optional<double> fallback) const
      -> double {
    const std::string range = "a number from " + format_number(lo) + " to " + format_number(hi);
    if (!object_.contains(key)) return fallback ? *fallback : missing(key, range);
    const json& v = object_[key];
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < lo || v.get<double>() > hi)
      throw Error("plan input: " + name(key) + " must be " + range + ", got " + v.dump());
    return v.get<double>();
  }

  [[nodiscard]] auto text(const std::string& key, std::string fallback) const -> std::string {
    if (!object_.contains(key)) return fallback;
    if (!object_[key].is_string()) throw Error("plan input: " + name(key) + " must be a string, got " + object_[key].dump());
    return object_[key].get<std::string>();
  }

  [[nodiscard]] auto child(const std::string& key, bool required) const -> std::optional<Path> {
    if (!object_.contains(key)) {
      if (required) throw Error("plan input: " + name(key) + " is missing (a JSON object)");
      return std::nullopt;
    }
    return Path{&object_[key], name(key)};
  }

 private:
  [[nodiscard]] auto label() const -> std::string { return path_.empty() ? "the input" : path_; }
  [[nodiscard]] auto name(const std::string& key) const -> std::string { return path_.empty() ? key : path_ + "." + key; }
  [[noreturn]] auto missing(const std::string& key, const std::string& range) const -> int {
    throw Error("plan input: " + name(key) + " is missing (" + range + ")");
  }

  const json& object_;
  std::string path_;
};

auto read_gpu(const Fields::Path& at) -> GpuSpec {
  const Fields f(*at.value, at.path, {"name", "tflops", "memory_gb"});
  return GpuSpec{f.text("name", "GPU"), f.number("tflops", 1, 1e6, std::nullopt), f.number("memory_gb", 1, 1e5, std::nullopt)};
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
  m.pp = f.integer("pp", 1, 256, std::nullopt);
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

/// Rules that involve several fields.
void check_consistency(PlanInput& in) {
  ClusterSpec& c = in.cluster;
  ModelSpec& m = in.model;
  if (c.gpus % m.pp != 0)
    throw Error("plan input: cluster.gpus (" + std::to_string(c.gpus) + ") must be a multiple of model.pp (" +
                std::to_string(m.pp) + ")");
  const int per_stage = c.gpus / m.pp;
  if (m.experts == 0 && m.ep > 1) throw Error("plan input: model.ep applies only to MoE models (model.experts > 0)");
  if (m.ep == 0) m.ep = m.experts > 0 ? std::gcd(m.experts, per_stage) : 1;
  if (per_stage % m.ep != 0)
    throw Error("plan input: model.ep (" + std::to_string(m.ep) + ") must divide the GPUs of one pipeline stage, " +
                "cluster.gpus / model.pp = " + std::to_string(per_stage));
  if (m.experts > 0 && m.ep > m.experts)
    throw Error("plan input: model.ep (" + std::to_string(m.ep) + ") cannot exceed model.experts (" +
                std::to_string(m.experts) + ")");
}

// ---------------------------------------------------------------------------------------------------
// The cost model (see planner.h).

auto moe_layers(const ModelSpec& m) -> int { return m.experts > 0 ? m.layers - m.dense_layers : 0; }
auto dense_ffn_layers(const ModelSpec& m) -> int { return m.experts > 0 ? m.dense_layers : m.layers; }
auto ffn_width(const ModelSpec& m) -> double {
  return m.ffn_hidden > 0 ? m.ffn_hidden : std::round(8.0 * m.hidden / 3.0);
}

/// Parameters from the shape: 4h^2 attention, a gated FFN (3 matrices), gated experts plus a router,
/// untied input and output embeddings.
auto estimated_total(const ModelSpec& m) -> double {
  const double h = m.hidden;
  const double attention = 4 * h * h;
  const double dense_ffn = 3 * h * ffn_width(m);
  const double moe = (m.experts + m.shared_experts) * 3 * h * m.expert_hidden + h * m.experts;
  return m.layers * attention + dense_ffn_layers(m) * dense_ffn + moe_layers(m) * moe + 2.0 * m.vocab * h;
}

/// Activation values stored per token and layer (see planner.h).
auto activation_values_per_token(const ModelSpec& m) -> double {
  const double h = m.hidden;
  const double dense = 8 * h + (h + 3 * ffn_width(m));
  const double moe = 8 * h + (m.top_k + m.shared_experts) * (h + 3.0 * m.expert_hidden);
  return dense_ffn_layers(m) * dense + moe_layers(m) * moe;
}

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

auto op_costs(const Context& ctx, int stages) -> Costs {
  const double s = stages;
  const ModelCosts& mc = ctx.mc;
  const PlanAssumptions& a = ctx.in.assumptions;
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

void fill_memory(const Context& ctx, const Run& r, PlanCandidate& out) {
  const PlanAssumptions& a = ctx.in.assumptions;
  const double stages = r.schedule.layout.stages;
  const double other = ctx.params.other / stages;             // one stage, one GPU: not sharded by EP
  const double routed = ctx.params.routed / stages / ctx.ep;  // one stage's routed experts on one GPU
  const double held = out.stages_held;
  const double per_gpu = held * (other + routed);
  const double expert_dp = static_cast<double>(ctx.in.cluster.gpus) / (ctx.in.model.pp * ctx.ep);
  // ZeRO-1 shards the optimizer state over the data-parallel replicas of a parameter; the copies of a
  // two-direction schedule are replicas too.
  const double optimizer = held * (other / ctx.dp + routed / expert_dp) * a.optimizer_bytes / out.parameter_copies;
  out.weights_gb = per_gpu * a.weight_bytes / 1e9;
  out.gradients_gb = per_gpu * a.grad_bytes / 1e9;
  out.optimizer_gb = optimizer / 1e9;
  out.activations_gb = out.peak_activations * ctx.mc.activation_bytes / stages / 1e9;
  out.total_gb = out.weights_gb + out.gradients_gb + out.optimizer_gb + out.activations_gb;
  out.fits = out.total_gb <= ctx.in.cluster.gpu.memory_gb;
}

auto candidate(const Context& ctx, const ScheduleSpec& spec) -> PlanCandidate {
  const ModelSpec& m = ctx.in.model;
  RunRequest request;
  request.schedule = std::string(spec.name);
  request.params = {m.pp, m.micro_batches, spec.uses_virtual_stages ? ctx.in.assumptions.virtual_stages : 1};
  // The stage count comes from the schedule's layout (DualPipeV and interleaving cut the model finer).
  const Schedule shape = build_schedule(spec.name, request.params);
  request.costs = op_costs(ctx, shape.layout.stages);
  const Run r = run(request);

  PlanCandidate out;
  out.schedule = request.schedule;
  out.title = std::string(spec.title);
  out.stages = r.schedule.layout.stages;
  out.virtual_stages = request.params.virtual_stages;
  out.costs = request.costs;
  out.makespan_ms = r.metrics.makespan;
  out.bubble_fraction = r.metrics.bubble_fraction;
  double busy = 0;
  for (const RankMetrics& rm : r.metrics.per_rank) {
    busy += rm.busy;
    out.stages_held = std::max(out.stages_held, rm.stages_held);
  }
  const double capacity = static_cast<double>(m.pp) * r.metrics.makespan;
  const double compute = m.micro_batches * (ctx.mc.forward_ms + ctx.mc.backward_ms);  // each micro-batch once
  out.compute_fraction = compute / capacity;
  out.overhead_fraction = std::max(0.0, busy - compute) / capacity;
  out.tokens_per_gpu_s = m.micro_batches * ctx.mc.tokens / (r.metrics.makespan / 1000) / m.pp;
  out.parameter_copies = r.schedule.layout.directions;
  out.peak_activations = r.metrics.peak_activations;
  out.overlapped_pairs = static_cast<int>(
      std::count_if(r.schedule.ops.begin(), r.schedule.ops.end(), [](const Op& op) { return op.kind == OpKind::FB; }));
  fill_memory(ctx, r, out);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// The recommendation: reasons are sentences around numbers computed above, never canned per input.

auto fixed(double v, int decimals) -> std::string {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
  return buffer;
}
auto pct(double fraction) -> std::string { return fixed(fraction * 100, 1) + "%"; }
auto gb(double v) -> std::string { return fixed(v, 1) + " GB"; }
auto duration(double ms) -> std::string { return ms >= 10'000 ? fixed(ms / 1000, 2) + " s" : fixed(ms, 1) + " ms"; }

auto find(const std::vector<PlanCandidate>& list, std::string_view name) -> const PlanCandidate* {
  for (const PlanCandidate& c : list)
    if (c.schedule == name) return &c;
  return nullptr;
}

void reason_speed(const Plan& p, const PlanCandidate& pick, const PlanCandidate& fastest, std::vector<std::string>& out) {
  const double cap = p.input.cluster.gpu.memory_gb;
  if (pick.schedule == fastest.schedule) {
    std::string line = pick.schedule + " has the shortest iteration of the schedules that fit in " + gb(cap) + ": " +
                       duration(pick.makespan_ms);
    for (const PlanCandidate& c : p.ranked)
      if (c.fits && c.schedule != pick.schedule) {
        line += ", " + pct(1 - pick.makespan_ms / c.makespan_ms) + " shorter than the next, " + c.schedule + " (" +
                duration(c.makespan_ms) + ")";
        break;
      }
    out.push_back(line);
    // Why not the schedules that are just as fast: they cost memory.
    for (const PlanCandidate& c : p.ranked)
      if (c.fits && c.schedule != pick.schedule && c.makespan_ms <= pick.makespan_ms * (1 + p.input.assumptions.tolerance) &&
          c.total_gb > pick.total_gb)
        out.push_back(c.schedule + " is as fast (within " + pct(c.makespan_ms / pick.makespan_ms - 1) + ") but needs " +
                      gb(c.total_gb - pick.total_gb) + " more per GPU (" + fixed(c.parameter_copies, 0) +
                      (c.parameter_copies > 1 ? " parameter copies, " : " parameter copy, ") +
                      std::to_string(c.peak_activations) + " live activation chunks of " + std::to_string(c.stages) +
                      " stages)");
    return;
  }
  out.push_back(pick.schedule + " is within " + pct(pick.makespan_ms / fastest.makespan_ms - 1) + " of the fastest, " +
                fastest.schedule + " (" + duration(pick.makespan_ms) + " vs " + duration(fastest.makespan_ms) +
                "), and needs " + gb(fastest.total_gb - pick.total_gb) + " less per GPU (" + gb(pick.total_gb) + " vs " +
                gb(fastest.total_gb) + "); schedules within " + pct(p.input.assumptions.tolerance) +
                " of the fastest count as equally fast, and the lightest of them wins");
}

void reason_baseline(const Plan& p, const PlanCandidate& pick, std::vector<std::string>& out) {
  const PlanCandidate* base = find(p.ranked, "1f1b");
  if (base == nullptr || base->schedule == pick.schedule) return;
  const double gain = 1 - pick.makespan_ms / base->makespan_ms;
  out.push_back("against 1f1b: " + (gain >= 0 ? pct(gain) + " shorter" : pct(-gain) + " longer") + " iteration (" +
                duration(pick.makespan_ms) + " vs " + duration(base->makespan_ms) + "); bubble " +
                pct(pick.bubble_fraction) + " vs " + pct(base->bubble_fraction) + ", communication overhead " +
                pct(pick.overhead_fraction) + " vs " + pct(base->overhead_fraction));
}

void reason_communication(const Plan& p, const PlanCandidate& pick, std::vector<std::string>& out) {
  const ModelCosts& mc = p.model_costs;
  if (mc.a2a_forward_ms <= 0) {
    if (find(p.ranked, "dualpipe") != nullptr)
      out.push_back("dense model: no all-to-all to hide, so an F&B pair costs F + B and DualPipe's overlap gains "
                    "nothing beyond its smaller bubble");
    return;
  }
  const PlanCandidate* worst = nullptr;
  for (const PlanCandidate& c : p.ranked)
    if (worst == nullptr || c.overhead_fraction > worst->overhead_fraction) worst = &c;
  std::string line = "all-to-all over " + mc.a2a_link + " takes " + duration(mc.a2a_forward_ms) +
                     " per micro-batch forward against " + duration(mc.forward_ms) +
                     " of forward computation (computation:communication = 1:" +
                     fixed(mc.a2a_forward_ms / mc.forward_ms, 2) + ")";
  if (pick.overlapped_pairs > 0 && worst != nullptr && worst->schedule != pick.schedule)
    line += "; a chunk alone cannot hide it, so " + worst->schedule + " spends " + pct(worst->overhead_fraction) +
            " of its GPU time communicating, while " + pick.schedule + " runs " + std::to_string(pick.overlapped_pairs) +
            " F&B pairs per iteration (all ranks) that hide it under the other chunk's computation and loses " +
            pct(pick.overhead_fraction) + " (the exposed rest, plus the SMs lent to communication)";
  else if (worst != nullptr && worst->schedule != pick.schedule)
    line += "; " + pick.schedule + " spends " + pct(pick.overhead_fraction) + " of its GPU time communicating, " +
            worst->schedule + " " + pct(worst->overhead_fraction);
  else
    line += "; " + pick.schedule + " spends " + pct(pick.overhead_fraction) + " of its GPU time communicating";
  out.push_back(line);
}

void reason_memory(const Plan& p, const PlanCandidate& pick, std::vector<std::string>& out) {
  const double cap = p.input.cluster.gpu.memory_gb;
  out.push_back(pick.schedule + " needs " + gb(pick.total_gb) + " of " + gb(cap) + " per GPU: " +
                gb(pick.weights_gb + pick.gradients_gb + pick.optimizer_gb) + " for parameters, gradients and optimizer (" +
                fixed(pick.parameter_copies, 0) + (pick.parameter_copies > 1 ? " copies" : " copy") + "), " +
                gb(pick.activations_gb) + " for " + std::to_string(pick.peak_activations) + " live activation chunks");
  if (pick.parameter_copies > 1) {
    const double copy = (pick.weights_gb + pick.gradients_gb) / pick.parameter_copies;
    std::string line = "the second parameter copy costs " + gb(copy) + " per GPU (" + pct(copy / cap) + " of memory)";
    if (p.ep > 1)
      line += ", small because EP " + std::to_string(p.ep) + " leaves each GPU " +
              fixed(static_cast<double>(p.input.model.experts) / p.ep, 1) + " of the " +
              std::to_string(p.input.model.experts) + " routed experts of each MoE layer";
    out.push_back(line);
  }
  for (const PlanCandidate& c : p.ranked)
    if (!c.fits && c.makespan_ms < pick.makespan_ms) {
      out.push_back(c.schedule + " would be faster (" + duration(c.makespan_ms) + ") but needs " + gb(c.total_gb) +
                    " > " + gb(cap));
      break;
    }
}

void recommend(Plan& p) {
  std::vector<const PlanCandidate*> fitting;
  for (const PlanCandidate& c : p.ranked)
    if (c.fits) fitting.push_back(&c);
  if (fitting.empty()) {
    if (p.ranked.empty()) {
      p.reasons.push_back("no schedule of the registry accepts this configuration");
      return;
    }
    const auto lightest = std::min_element(p.ranked.begin(), p.ranked.end(),
                                           [](const auto& a, const auto& b) { return a.total_gb < b.total_gb; });
    p.recommended = lightest->schedule;
    p.reasons.push_back("no schedule fits in " + gb(p.input.cluster.gpu.memory_gb) + "; " + lightest->schedule +
                        " needs the least, " + gb(lightest->total_gb) +
                        ": use smaller micro-batches, more pipeline stages or a larger EP");
    return;
  }
  const PlanCandidate& fastest = *fitting.front();  // ranked: fitting first, fastest first
  const PlanCandidate* pick = &fastest;
  for (const PlanCandidate* c : fitting)
    if (c->makespan_ms <= fastest.makespan_ms * (1 + p.input.assumptions.tolerance) && c->total_gb < pick->total_gb)
      pick = c;
  p.recommended = pick->schedule;
  reason_speed(p, *pick, fastest, p.reasons);
  reason_baseline(p, *pick, p.reasons);
  reason_communication(p, *pick, p.reasons);
  reason_memory(p, *pick, p.reasons);
}

auto costs_json(const Costs& c) -> json {
  return {{"F", c.f}, {"B", c.b}, {"W", c.w}, {"FB", c.fb}, {"comm", c.comm}};
}

}  // namespace

auto parse_plan_input(std::string_view json_text) -> PlanInput {
  const json root = json::parse(json_text, nullptr, false);
  if (root.is_discarded())
    throw Error("plan input is not valid JSON; expected an object with \"cluster\", \"model\" and optional \"assumptions\"");
  const Fields top(root, "", {"cluster", "model", "assumptions"});
  PlanInput in;
  in.cluster = read_cluster(*top.child("cluster", true));
  in.model = read_model(*top.child("model", true));
  in.assumptions = read_assumptions(top.child("assumptions", false));
  check_consistency(in);
  return in;
}

auto parameter_split(const ModelSpec& m) -> ParameterSplit {
  ParameterSplit s;
  s.routed = moe_layers(m) * static_cast<double>(m.experts) * 3 * m.hidden * m.expert_hidden;
  s.estimated = m.params <= 0;
  s.total = s.estimated ? estimated_total(m) : m.params;
  if (s.total < s.routed)
    throw Error("plan input: model.params_b (" + fixed(s.total / 1e9, 1) + ") is smaller than the routed experts alone (" +
                fixed(s.routed / 1e9, 1) + "B = MoE layers x experts x 3 x hidden x expert_hidden)");
  s.other = s.total - s.routed;
  s.active = m.active_params > 0   ? m.active_params
             : m.experts > 0 ? s.other + s.routed * m.top_k / m.experts
                             : s.total;
  return s;
}

auto model_costs(const PlanInput& in, const ParameterSplit& params) -> ModelCosts {
  const ModelSpec& m = in.model;
  const ClusterSpec& c = in.cluster;
  const PlanAssumptions& a = in.assumptions;
  ModelCosts mc;
  mc.tokens = static_cast<double>(m.seq_len) * m.micro_batch_size;
  mc.forward_flops = mc.tokens * (2 * params.active + 2.0 * m.layers * m.seq_len * m.hidden);
  const double flops_per_s = c.gpu.tflops * 1e12 * a.mfu;
  mc.forward_ms = seconds_to_ms(mc.forward_flops / flops_per_s);
  mc.backward_ms = 2 * mc.forward_ms;
  mc.weight_ms = mc.forward_ms;
  if (m.experts > 0) {
    const bool crosses_nodes = m.ep > c.gpus_per_node;
    mc.a2a_link = crosses_nodes ? "InfiniBand" : "NVLink";
    const double link = (crosses_nodes ? c.ib_gb_s : c.nvlink_gb_s) * 1e9;
    const double bytes = mc.tokens * m.top_k * m.hidden * (a.dispatch_bytes + a.combine_bytes);
    mc.a2a_forward_ms = seconds_to_ms(moe_layers(m) * bytes / link);
    mc.a2a_backward_ms = mc.a2a_forward_ms;
  }
  const double pp_link = (c.gpus > c.gpus_per_node ? c.ib_gb_s : c.nvlink_gb_s) * 1e9;
  mc.pp_send_ms = seconds_to_ms(mc.tokens * m.hidden * 2 / pp_link);
  mc.activation_bytes = mc.tokens * activation_values_per_token(m) * a.activation_bytes;
  return mc;
}

auto plan(const PlanInput& input) -> Plan {
  Plan p;
  p.input = input;
  p.parameters = parameter_split(input.model);
  p.model_costs = model_costs(input, p.parameters);
  p.ep = std::max(1, input.model.ep);
  p.dp = input.cluster.gpus / input.model.pp;
  const Context ctx{p.input, p.parameters, p.model_costs, p.ep, p.dp};
  for (const ScheduleSpec* spec : schedules()) {
    if (spec->parse != nullptr) continue;  // given as text (custom): nothing to plan
    try {
      p.ranked.push_back(candidate(ctx, *spec));
    } catch (const Error& e) {
      p.not_applicable.emplace_back(std::string(spec->name), e.what());
    }
  }
  std::stable_sort(p.ranked.begin(), p.ranked.end(), [](const PlanCandidate& a, const PlanCandidate& b) {
    if (a.fits != b.fits) return a.fits;
    return a.makespan_ms < b.makespan_ms;
  });
  recommend(p);
  return p;
}

auto plan_json(const Plan& p) -> json {
  const ModelSpec& m = p.input.model;
  const ClusterSpec& c = p.input.cluster;
  const PlanAssumptions& a = p.input.assumptions;
  json out;
  out["input"] = {
      {"cluster", {{"gpus", c.gpus}, {"gpus_per_node", c.gpus_per_node},
                   {"gpu", {{"name", c.gpu.name}, {"tflops", c.gpu.tflops}, {"memory_gb", c.gpu.memory_gb}}},
                   {"nvlink_gb_s", c.nvlink_gb_s}, {"ib_gb_s", c.ib_gb_s}}},
      {"model", {{"name", m.name}, {"layers", m.layers}, {"hidden", m.hidden}, {"dense_layers", m.dense_layers},
                 {"ffn_hidden", m.ffn_hidden}, {"experts", m.experts}, {"shared_experts", m.shared_experts},
                 {"top_k", m.top_k}, {"expert_hidden", m.expert_hidden}, {"seq_len", m.seq_len},
                 {"micro_batch_size", m.micro_batch_size}, {"micro_batches", m.micro_batches}, {"pp", m.pp}, {"ep", p.ep}}},
      {"assumptions", {{"mfu", a.mfu}, {"weight_bytes", a.weight_bytes}, {"grad_bytes", a.grad_bytes},
                       {"optimizer_bytes", a.optimizer_bytes}, {"activation_bytes", a.activation_bytes},
                       {"dispatch_bytes", a.dispatch_bytes}, {"combine_bytes", a.combine_bytes},
                       {"comm_sms", a.comm_sms}, {"total_sms", a.total_sms}, {"virtual_stages", a.virtual_stages},
                       {"tolerance", a.tolerance}}}};
  const ModelCosts& mc = p.model_costs;
  out["estimates"] = {
      {"parameters", {{"total", p.parameters.total}, {"routed_experts", p.parameters.routed}, {"other", p.parameters.other},
                      {"active", p.parameters.active}, {"estimated_from_shape", p.parameters.estimated}}},
      {"data_parallel", p.dp},
      {"per_micro_batch", {{"tokens", mc.tokens}, {"forward_flops", mc.forward_flops}, {"forward_ms", mc.forward_ms},
                           {"backward_ms", mc.backward_ms}, {"weight_ms", mc.weight_ms},
                           {"a2a_forward_ms", mc.a2a_forward_ms}, {"a2a_backward_ms", mc.a2a_backward_ms},
                           {"a2a_link", mc.a2a_link}, {"pp_send_ms", mc.pp_send_ms},
                           {"activation_gb", mc.activation_bytes / 1e9}}},
      {"units", "per micro-batch, whole model; a stage of a schedule with S stages gets 1/S (see planner.h)"}};
  out["candidates"] = json::array();
  int rank = 0;
  for (const PlanCandidate& k : p.ranked)
    out["candidates"].push_back(
        {{"rank", ++rank}, {"schedule", k.schedule}, {"title", k.title}, {"stages", k.stages},
         {"virtual_stages", k.virtual_stages}, {"cost_ms", costs_json(k.costs)}, {"makespan_ms", k.makespan_ms},
         {"bubble_fraction", k.bubble_fraction}, {"compute_fraction", k.compute_fraction},
         {"comm_overhead_fraction", k.overhead_fraction}, {"tokens_per_gpu_s", k.tokens_per_gpu_s},
         {"stages_held", k.stages_held}, {"parameter_copies", k.parameter_copies},
         {"peak_activations", k.peak_activations}, {"overlapped_pairs", k.overlapped_pairs},
         {"memory_gb", {{"weights", k.weights_gb}, {"gradients", k.gradients_gb}, {"optimizer", k.optimizer_gb},
                        {"activations", k.activations_gb}, {"total", k.total_gb}, {"capacity", c.gpu.memory_gb}}},
         {"fits", k.fits}});
  out["not_applicable"] = json::array();
  for (const auto& [name, why] : p.not_applicable) out["not_applicable"].push_back({{"schedule", name}, {"reason", why}});
  out["recommendation"] = {{"schedule", p.recommended}, {"reasons", p.reasons}};
  return out;
}

auto render_plan_text(const Plan& p) -> std::string {
  const ModelSpec& m = p.input.model;
  const ClusterSpec& c = p.input.cluster;
  const ModelCosts& mc = p.model_costs;
  std::string out = "plan: " + m.name + " on " + std::to_string(c.gpus) + " x " + c.gpu.name + " (" +
                    gb(c.gpu.memory_gb) + "), PP " + std::to_string(m.pp) + ", EP " + std::to_string(p.ep) + ", DP " +
                    std::to_string(p.dp) + ", " + std::to_string(m.micro_batches) + " micro-batches of " +
                    fixed(mc.tokens, 0) + " tokens\n";
  out += "parameters " + fixed(p.parameters.total / 1e9, 1) + "B (routed experts " + fixed(p.parameters.routed / 1e9, 1) +
         "B), active " + fixed(p.parameters.active / 1e9, 1) + "B" + (p.parameters.estimated ? " (estimated from the shape)" : "") +
         "\n";
  out += "per micro-batch, whole model: F " + duration(mc.forward_ms) + ", B " + duration(mc.backward_ms) + ", W " +
         duration(mc.weight_ms) + " of computation";
  if (mc.a2a_forward_ms > 0)
    out += "; all-to-all " + duration(mc.a2a_forward_ms) + " forward, " + duration(mc.a2a_backward_ms) + " backward over " +
           mc.a2a_link;
  out += "; pipeline send " + duration(mc.pp_send_ms) + "\n\n";
  char line[256];
  std::snprintf(line, sizeof line, "%-4s %-16s %6s %6s %10s %7s %8s %8s %9s %9s %9s %5s\n", "#", "schedule", "stages",
                "copies", "makespan", "bubble", "compute", "comm.", "params", "act.", "total", "fits");
  out += line;
  int rank = 0;
  for (const PlanCandidate& k : p.ranked) {
    std::snprintf(line, sizeof line, "%-4d %-16s %6d %6.0f %10s %7s %8s %8s %9s %9s %9s %5s\n", ++rank, k.schedule.c_str(),
                  k.stages, k.parameter_copies, duration(k.makespan_ms).c_str(), pct(k.bubble_fraction).c_str(),
                  pct(k.compute_fraction).c_str(), pct(k.overhead_fraction).c_str(),
                  gb(k.weights_gb + k.gradients_gb + k.optimizer_gb).c_str(), gb(k.activations_gb).c_str(),
                  gb(k.total_gb).c_str(), k.fits ? "yes" : "no");
    out += line;
  }
  for (const auto& [name, why] : p.not_applicable) out += "     " + name + ": not applicable: " + why + "\n";
  out += "\nrecommended: " + (p.recommended.empty() ? std::string("none") : p.recommended) + "\n";
  for (const std::string& r : p.reasons) out += "  - " + r + "\n";
  return out;
}

auto plan_from_json(std::string_view json_text) -> json { return plan_json(plan(parse_plan_input(json_text))); }

}  // namespace pipesim
