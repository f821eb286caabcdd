#pragma once
// Views of a Run for people and programs: the JSON contract and the terminal timeline.
#include <string>

#include <nlohmann/json.hpp>

#include "pipesim/run.h"
#include "pipesim/text_sink.h"

namespace pipesim {

enum class Detail { summary, full };

/// The CLI's JSON contract (documented in README.md). `full` adds every op with its times.
[[nodiscard]] auto to_json(const Run& run, Detail detail) -> nlohmann::json;

/// to_json(run, detail).dump(2), byte for byte, written into `out` piece by piece: the full report of
/// a large run is hundreds of megabytes as text and several times that as a tree, which is never built.
void write_json(const Run& run, Detail detail, TextSink& out);

/// The catalogue as JSON: name, title, summary, source, constraints, uses_virtual_stages, and
/// takes_text (the schedule is given as text, RunRequest::custom_schedule, instead of generated).
[[nodiscard]] auto schedules_json() -> nlohmann::json;

/// A per-rank timeline a person can read in a terminal, like the paper's figure, then the numbers.
/// `color` adds ANSI colours (forward orange, backward green, weight blue).
[[nodiscard]] auto render_text(const Run& run, bool color) -> std::string;

/// The catalogue as an aligned table.
[[nodiscard]] auto render_schedule_list() -> std::string;

}  // namespace pipesim
