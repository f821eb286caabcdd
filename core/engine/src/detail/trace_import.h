#pragma once
// Reading back a Chrome trace that pipesim wrote (export.h): the trace is turned into the JSON
// contract's shape, so custom.cpp checks it with the very rules it applies to `--format json` exports.
#include <nlohmann/json.hpp>

namespace pipesim::detail {

/// True for a Chrome trace in object form: a JSON object with `traceEvents`.
[[nodiscard]] auto is_chrome_trace(const nlohmann::json& j) -> bool;

/// The schedule of a trace written by to_chrome_trace, as `simulate --format json` would give it:
/// micro_batches, directions, stages, ranks and per_rank[].ops, each rank's ops from its compute events
/// in the order of their timestamps (ties broken by the op's index on its rank). Throws Error with one
/// line when the trace was not written by pipesim or is malformed.
[[nodiscard]] auto schedule_json_from_trace(const nlohmann::json& trace) -> nlohmann::json;

}  // namespace pipesim::detail
