// Workloads: strict JSON parsing and the derivation of every chunk component's duration.
// The formulas and why they look that way are in pipesim/workload.h.
#include "pipesim/workload.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "detail/input_size.h"
#include "detail/json_document.h"
#include "detail/json_text.h"
#include "detail/short_number.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"
#include "pipesim/parse.h"

namespace pipesim {

namespace {

using detail::short_number;

enum class Kind { whole, positive, non_negative };

struct Field {
  const char* name;
  bool required;
  Kind kind;
  double min;  // for whole numbers
};

// Every field of the JSON file, in the order the README lists them.
const std::vector<Field> fields{
    {"tokens", true, Kind::whole, 1},          {"hidden", true, Kind::whole, 1},
    {"experts", true, Kind::whole, 1},         {"top_k", true, Kind::whole, 1},
    {"expert_hidden", true, Kind::whole, 1},   {"nodes_per_token", true, Kind::whole, 1},
    {"bytes_per_element", true, Kind::positive, 0}, {"gpu_tflops", true, Kind::positive, 0},
    {"nvlink_gbps", true, Kind::positive, 0},  {"ib_gbps", true, Kind::positive, 0},
    {"shared_experts", false, Kind::whole, 0}, {"combine_bytes_per_element", false, Kind::positive, 0},
    {"attention_params", false, Kind::non_negative, 0}, {"attention_dim", false, Kind::non_negative, 0},
    {"sequence", false, Kind::non_negative, 0}, {"layers", false, Kind::whole, 1},
    {"comm_sms", false, Kind::whole, 1},       {"total_sms", false, Kind::whole, 2},
    {"saturation_sms", false, Kind::whole, 1},
};

auto field_names(bool required_only) -> std::string {
  std::string out;
  for (const Field& f : fields)
    if (f.required || !required_only) out += (out.empty() ? "" : ", ") + std::string(f.name);
  return out;
}

auto find_field(const std::string& name) -> const Field* {
  for (const Field& f : fields)
    if (name == f.name) return &f;
  return nullptr;
}

auto shown(const nlohmann::json& value) -> std::string { return detail::describe_json(value); }

auto checked_value(const Field& f, const nlohmann::json& value) -> double {
  const std::string name = f.name;
  const double v = value.is_number() ? value.get<double>() : NAN;
  if (!value.is_number() || !std::isfinite(v))
    throw Error(ErrorCode::bad_value, "workload field '" + name + "' must be a number, got " + shown(value),
                {"workload.number", {{"name", name}, {"value", shown(value)}}});
  switch (f.kind) {
    case Kind::whole:
      if (v != std::floor(v) || v < f.min || v > 1e15)
        throw Error(ErrorCode::bad_value, "workload field '" + name + "' must be a whole number >= " + format_number(f.min) + ", got " +
                    format_number(v), {"workload.whole", {{"name", name}, {"min", format_number(f.min)}, {"value", format_number(v)}}});
      break;
    case Kind::positive:
      if (v <= 0)
        throw Error(ErrorCode::bad_value, "workload field '" + name + "' must be a number > 0, got " + format_number(v),
                    {"workload.positive", {{"name", name}, {"value", format_number(v)}}});
      break;
    case Kind::non_negative:
      if (v < 0)
        throw Error(ErrorCode::bad_value, "workload field '" + name + "' must be a number >= 0, got " + format_number(v),
                    {"workload.non_negative", {{"name", name}, {"value", format_number(v)}}});
      break;
  }
  return v;
}

auto parse_json(std::string_view whole) -> nlohmann::json {
  const std::string_view text = detail::document_text(whole, limits::max_small_json_bytes, "a workload");
  try {
    return detail::parse_json_within(text, "a workload");
  } catch (const nlohmann::json::exception& e) {
    // nlohmann's message starts with "[json.exception.parse_error.101] "; keep what follows, one line.
    std::string what = e.what();
    if (const auto close = what.find("] "); what.rfind("[json.exception", 0) == 0 && close != std::string::npos)
      what = what.substr(close + 2);
    for (char& ch : what)
      if (ch == '\n' || ch == '\r') ch = ' ';
    throw Error(ErrorCode::bad_import, "workload is not valid JSON: " + what, {"workload.not_json", {}});
  }
}

auto read_fields(const nlohmann::json& root) -> std::map<std::string, double> {
  if (!root.is_object())
    throw Error(ErrorCode::bad_import, "a workload must be a JSON object of numbers; required fields are " + field_names(true),
                {"workload.not_object", {{"required", field_names(true)}}});
  std::map<std::string, double> values;
  for (const auto& [key, value] : root.items()) {
    const Field* f = find_field(key);
    if (f == nullptr)
      throw Error(ErrorCode::unknown_name, "unknown workload field '" + quoted_input(key) + "'; fields are " + field_names(false),
                  {"workload.unknown_field", {{"name", quoted_input(key)}, {"fields", field_names(false)}}});
    values[key] = checked_value(*f, value);
  }
  for (const Field& f : fields)
    if (f.required && values.count(f.name) == 0)
      throw Error(ErrorCode::bad_import, "workload field '" + std::string(f.name) + "' is missing; required fields are " + field_names(true),
                  {"workload.missing", {{"name", std::string(f.name)}, {"required", field_names(true)}}});
  return values;
}

auto sm_split(const std::map<std::string, double>& v) -> std::optional<SmSplit> {
  const auto get = [&](const char* name, int fallback) {
    const auto it = v.find(name);
    return it == v.end() ? fallback : static_cast<int>(std::min(it->second, 1e9));
  };
  if (v.count("comm_sms") == 0) {
    if (v.count("total_sms") != 0 || v.count("saturation_sms") != 0)
      throw Error(ErrorCode::bad_value, "workload fields total_sms and saturation_sms need comm_sms, the SMs given to communication",
                  {"workload.sms_need_comm", {}});
    return std::nullopt;
  }
  return SmSplit{get("comm_sms", 20), get("total_sms", 132), get("saturation_sms", 20)};
}

// ---- Derivation: one function per formula, each returning symbols, numbers and the value. ----

struct Term {
  std::string formula;
  std::string worked;
  double value;
};

auto n(double v) -> std::string { return format_number(v); }

// FLOP to microseconds at X TFLOP/s.
auto flop_time(const Workload& w, double flop) -> double { return flop / (w.gpu_tflops * 1e6); }
// Bytes to microseconds at GB/s.
auto byte_time(double bytes, double gbps) -> double { return bytes / (gbps * 1e3); }

auto attention(const Workload& w, double weight_passes, double score_passes, const std::string& symbols) -> Term {
  const double per_token = weight_passes * 2 * w.attention_params + score_passes * 2 * w.sequence * w.attention_dim;
  const double flop = w.layers * w.tokens * per_token;
  std::string numbers = n(w.layers) + "·" + n(w.tokens) + "·(";
  if (weight_passes > 0) numbers += "2·" + n(w.attention_params);
  if (weight_passes > 0 && score_passes > 0) numbers += " + ";
  if (score_passes > 0) numbers += n(2 * score_passes) + "·" + n(w.sequence) + "·" + n(w.attention_dim);
  numbers += ") FLOP / " + n(w.gpu_tflops) + " TFLOP/s";
  const double t = flop_time(w, flop);
  return {symbols, numbers + " = " + short_number(t) + " us", t};
}

auto mlp(const Workload& w) -> Term {
  const double flop = w.layers * w.tokens * (w.top_k + w.shared_experts) * 6 * w.hidden * w.expert_hidden;
  const double t = flop_time(w, flop);
  return {"L·T·(k+s)·6·h·h_e / X",
          n(w.layers) + "·" + n(w.tokens) + "·(" + n(w.top_k) + "+" + n(w.shared_experts) + ")·6·" + n(w.hidden) +
              "·" + n(w.expert_hidden) + " FLOP / " + n(w.gpu_tflops) + " TFLOP/s = " + short_number(t) + " us",
          t};
}

auto all_to_all(const Workload& w, double bytes, const std::string& e) -> Term {
  const double ib = byte_time(w.tokens * w.nodes_per_token * w.hidden * bytes, w.ib_gbps);
  const double nv = byte_time(w.tokens * w.top_k * w.hidden * bytes, w.nvlink_gbps);
  const double t = w.layers * std::max(ib, nv);
  return {"L·max(T·M·h·" + e + " / BW_IB, T·k·h·" + e + " / BW_NV)",
          n(w.layers) + "·max(" + n(w.tokens) + "·" + n(w.nodes_per_token) + "·" + n(w.hidden) + "·" + n(bytes) +
              " B / " + n(w.ib_gbps) + " GB/s, " + n(w.tokens) + "·" + n(w.top_k) + "·" + n(w.hidden) + "·" +
              n(bytes) + " B / " + n(w.nvlink_gbps) + " GB/s) = " + n(w.layers) + "·max(" + short_number(ib) + ", " +
              short_number(nv) + ") = " + short_number(t) + " us",
          t};
}

auto pp(const Workload& w) -> Term {
  const double t = byte_time(w.tokens * w.hidden * w.combine_bytes_per_element, w.ib_gbps);
  return {"T·h·e_c / BW_IB",
          n(w.tokens) + "·" + n(w.hidden) + "·" + n(w.combine_bytes_per_element) + " B / " + n(w.ib_gbps) +
              " GB/s = " + short_number(t) + " us",
          t};
}

auto term_of(const Workload& w, Component c) -> Term {
  const double e = w.bytes_per_element;
  const double e_c = w.combine_bytes_per_element;
  switch (c.part) {
    case Part::attn: return attention(w, 1, 1, "L·T·(2·P_a + 2·S·d_a) / X");
    case Part::attn_b: return attention(w, 1, 2, "L·T·(2·P_a + 4·S·d_a) / X");
    case Part::attn_w: return attention(w, 1, 0, "L·T·2·P_a / X");
    case Part::mlp:
    case Part::mlp_b:
    case Part::mlp_w: return mlp(w);
    case Part::dispatch: return c.pass == Pass::forward ? all_to_all(w, e, "e") : all_to_all(w, e_c, "e_c");
    case Part::combine: return all_to_all(w, e_c, "e_c");
    case Part::pp: return pp(w);
  }
  return {};
}

}  // namespace

auto deepseek_v3_workload() -> Workload { return Workload{}; }

auto parse_workload(std::string_view json_text) -> Workload {
  const auto v = read_fields(parse_json(json_text));
  const auto get = [&](const char* name, double fallback) {
    const auto it = v.find(name);
    return it == v.end() ? fallback : it->second;
  };
  Workload w;
  w.tokens = v.at("tokens");
  w.hidden = v.at("hidden");
  w.experts = v.at("experts");
  w.top_k = v.at("top_k");
  w.expert_hidden = v.at("expert_hidden");
  w.nodes_per_token = v.at("nodes_per_token");
  w.bytes_per_element = v.at("bytes_per_element");
  w.gpu_tflops = v.at("gpu_tflops");
  w.nvlink_gbps = v.at("nvlink_gbps");
  w.ib_gbps = v.at("ib_gbps");
  w.shared_experts = get("shared_experts", 0);
  w.combine_bytes_per_element = get("combine_bytes_per_element", w.bytes_per_element);
  w.attention_params = get("attention_params", 4 * w.hidden * w.hidden);
  w.attention_dim = get("attention_dim", w.hidden);
  w.sequence = get("sequence", w.tokens);
  w.layers = get("layers", 1);
  w.sms = sm_split(v);
  validate_workload(w);
  return w;
}

auto workload_json(const Workload& w) -> JsonDocument {
  nlohmann::json out = {{"tokens", w.tokens},
                        {"hidden", w.hidden},
                        {"experts", w.experts},
                        {"top_k", w.top_k},
                        {"expert_hidden", w.expert_hidden},
                        {"nodes_per_token", w.nodes_per_token},
                        {"bytes_per_element", w.bytes_per_element},
                        {"gpu_tflops", w.gpu_tflops},
                        {"nvlink_gbps", w.nvlink_gbps},
                        {"ib_gbps", w.ib_gbps},
                        {"shared_experts", w.shared_experts},
                        {"combine_bytes_per_element", w.combine_bytes_per_element},
                        {"attention_params", w.attention_params},
                        {"attention_dim", w.attention_dim},
                        {"sequence", w.sequence},
                        {"layers", w.layers}};
  if (w.sms) {
    out["comm_sms"] = w.sms->comm_sms;
    out["total_sms"] = w.sms->total_sms;
    out["saturation_sms"] = w.sms->saturation_sms;
  }
  return detail::document(std::move(out));
}

void validate_workload(const Workload& w) {
  if (w.top_k > w.experts)
    throw Error(ErrorCode::bad_value, "workload top_k (" + n(w.top_k) + ") must not exceed experts (" + n(w.experts) + ")",
                {"workload.top_k", {{"top_k", n(w.top_k)}, {"experts", n(w.experts)}}});
  if (w.nodes_per_token > w.top_k)
    throw Error(ErrorCode::bad_value, "workload nodes_per_token (" + n(w.nodes_per_token) + ") must not exceed top_k (" + n(w.top_k) +
                "): a token reaches at most one node per expert",
                {"workload.nodes_per_token", {{"nodes", n(w.nodes_per_token)}, {"top_k", n(w.top_k)}}});
  for (const double v : {w.tokens, w.hidden, w.expert_hidden, w.bytes_per_element, w.combine_bytes_per_element,
                         w.gpu_tflops, w.nvlink_gbps, w.ib_gbps, w.layers})
    if (!std::isfinite(v) || v <= 0)
      throw Error(ErrorCode::bad_value, "workload sizes, bandwidths and throughput must be > 0, got " + n(v), {"workload.sizes_positive", {{"value", n(v)}}});
  for (const double v : {w.shared_experts, w.attention_params, w.attention_dim, w.sequence})
    if (!std::isfinite(v) || v < 0)
      throw Error(ErrorCode::bad_value, "workload counts must be >= 0, got " + n(v), {"workload.counts_non_negative", {{"value", n(v)}}});
  if (w.sms) validate_sm_split(*w.sms);
}

auto derive_durations(const Workload& w) -> OverlapInput {
  validate_workload(w);
  OverlapInput input;
  input.sms = w.sms;
  input.unit = "us";
  for (const Pass pass : {Pass::forward, Pass::backward}) {
    for (const Component& c : chunk_components(pass)) {
      Term t = term_of(w, c);
      duration_of(input.durations, c) = t.value;
      input.derivation.push_back({c, std::move(t.formula), std::move(t.worked), t.value, t.value});
    }
  }
  return input;
}

}  // namespace pipesim
