// Reading a run request from JavaScript, as the CLI reads its options: shared by the engine module's
// bindings (bindings_engine.cpp) and the calls loaded later (bindings_later.cpp).
#pragma once

#include <string>
#include <vector>

#include "bindings_common.h"
#include "pipesim/cost_text.h"
#include "pipesim/limits.h"
#include "pipesim/presets.h"
#include "pipesim/registry.h"
#include "pipesim/run.h"
#include "pipesim/stage_costs.h"

namespace pipesim_wasm {

// Cold code, read once per request: compiled for size (at -O3 these few calls grew the page's
// first download by 15 KiB).
#define PIPESIM_WASM_COLD [[clang::minsize, gnu::noinline]]

/// An optional array of strings, as the CLI takes one repeated option.
PIPESIM_WASM_COLD inline auto texts_field(const val& js, const char* key) -> std::vector<std::string> {
  std::vector<std::string> out;
  const val v = js[key];
  if (v.isUndefined() || v.isNull()) return out;
  if (!val::global("Array").call<bool>("isArray", v))
    throw Error(ErrorCode::bad_value, std::string(key) + " must be an array of strings, got " + js_kind(v),
                {"arg.string_array", {{"name", key}, {"value", js_kind(v)}}});
  const auto n = static_cast<std::size_t>(v["length"].as<double>());
  if (n > static_cast<std::size_t>(pipesim::limits::max_ranks) * pipesim::limits::max_virtual_stages * 2)
    throw Error(ErrorCode::limit_exceeded, std::string(key) + " lists more entries than a run has stages or ranks",
                {"arg.too_many_entries", {{"name", key}}});
  for (std::size_t i = 0; i < n; ++i) out.push_back(text_field(v, std::to_string(i).c_str()));
  return out;
}

/// The costs beyond `cost`, as the CLI's options: modelStages (--model-stages, the page's "same model"
/// basis; --model-cost X is cost X with modelStages 1), stageCost (--stage-cost, a list) and rankSpeed
/// (--rank-speed, a list). A whole --stage-costs table is the CLI's only: stageCost entries say the same
/// ("0:F=1,B=2", "1:F=2,B=4", ...), and leaving its JSON reader out keeps the page's first download
/// under its size target.
PIPESIM_WASM_COLD inline void read_stage_costs(const val& js, pipesim::RunRequest& r) {
  r.per_stage.model_stages = reading("model_stages", [&] { return int_field(js, "modelStages", "modelStages", 0); });
  r.per_stage.overrides = reading("stage_cost", [&] {
    std::vector<pipesim::StageCostOverride> out;
    for (const std::string& t : texts_field(js, "stageCost")) out.push_back(pipesim::parse_stage_cost(t));
    return out;
  });
  r.per_stage.rank_speeds = reading("rank_speed", [&] {
    std::vector<pipesim::RankSpeed> out;
    for (const std::string& t : texts_field(js, "rankSpeed")) out.push_back(pipesim::parse_rank_speed(t));
    return out;
  });
}

/// The refusal of a request that is not an object, with the first preset (the page's default) as
/// its example.
[[noreturn]] inline void refuse_request_shape() {
  const pipesim::Preset& example = pipesim::presets().front();
  throw Error(ErrorCode::usage, "a request must be an object like {schedule: '" + std::string(example.schedule) +
                                    "', ranks: " + std::to_string(example.ranks) +
                                    ", microBatches: " + std::to_string(example.micro_batches) + "}",
              {"request.not_object", {{"schedule", std::string(example.schedule)}, {"ranks", std::to_string(example.ranks)},
                                      {"micro_batches", std::to_string(example.micro_batches)}}});
}

inline auto request_from(const val& js) -> pipesim::RunRequest {
  if (js.isUndefined() || js.isNull() || js.typeOf().as<std::string>() != "object") refuse_request_shape();
  pipesim::RunRequest r;
  if (const std::string name = reading("schedule", [&] { return text_field(js, "schedule"); }); !name.empty()) r.schedule = name;
  r.params.ranks = reading("ranks", [&] { return int_field(js, "ranks", "ranks", r.params.ranks); });
  r.params.micro_batches = reading("micro_batches", [&] { return int_field(js, "microBatches", "micro-batches", r.params.micro_batches); });
  r.params.virtual_stages =
      reading("virtual_stages", [&] { return int_field(js, "virtualStages", "virtual stages", r.params.virtual_stages); });
  reading("cost", [&] {
    if (const std::string cost = text_field(js, "cost"); !cost.empty()) r.costs = pipesim::parse_costs(cost);
  });
  read_stage_costs(js, r);
  r.custom_schedule = reading("custom_schedule", [&] { return text_field(js, "customSchedule", pipesim::limits::max_schedule_text_bytes); });
  if (const std::string timing = text_field(js, "timing"); !timing.empty()) r.timing = pipesim::parse_timing(timing);
  const std::string sends = text_field(js, "sends");
  pipesim::check_sends_apply(r.timing, !sends.empty(), "sends", "timing: 'reference'");
  if (!sends.empty()) r.sends = pipesim::parse_send_mode(sends);
  return r;
}

}  // namespace pipesim_wasm
