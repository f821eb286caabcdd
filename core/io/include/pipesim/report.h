#pragma once
// Views of a Run for people and programs: the JSON contract and the terminal timeline.
#include <string>
#include <string_view>

#include "pipesim/json_document.h"
#include "pipesim/run.h"
#include "pipesim/text_sink.h"

namespace pipesim {

enum class Detail { summary, full };

/// The CLI's JSON contract (documented in README.md). `full` adds every op with its times.
[[nodiscard]] auto to_json(const Run& run, Detail detail) -> JsonDocument;

/// to_json(run, detail).dump(2), byte for byte, written into `out` piece by piece: the full report of
/// a large run is hundreds of megabytes as text and several times that as a tree, which is never built.
void write_json(const Run& run, Detail detail, TextSink& out);

/// The catalogue as JSON, one object per schedule: name, source, the English title, summary and
/// constraints, uses_virtual_stages, takes_text (given as text, RunRequest::custom_schedule, instead
/// of generated), two_way (ScheduleSpec::two_way), texts {"en"|"pt-BR"|"zh-CN": {title, summary,
/// constraints, caption}}, colour {light, dark} and defaults {ranks, micro_batches, virtual_stages}.
[[nodiscard]] auto schedules_json() -> JsonDocument;

/// The presets as JSON: [{id, texts: {lang: {name}}, schedule, ranks, micro_batches, virtual_stages,
/// cost, compare: [names]}].
[[nodiscard]] auto presets_json() -> JsonDocument;

/// The guided lesson's runs as JSON: {cost, steps: [{id, run: {schedule, ranks, micro_batches},
/// compared: [runs]}]}.
[[nodiscard]] auto lesson_steps_json() -> JsonDocument;

/// A per-rank timeline a person can read in a terminal, like the paper's figure, then the numbers.
/// `color` adds ANSI colours (forward orange, backward green, weight blue).
[[nodiscard]] auto render_text(const Run& run, bool color) -> std::string;

/// The catalogue as an aligned table, in `language` (en, pt-BR or zh-CN; Error otherwise).
[[nodiscard]] auto render_schedule_list(std::string_view language = "en") -> std::string;

/// The catalogue as a Markdown table (name, what, rules, source) in `language`: README.md's schedules
/// table is this text (`pipesim list --format markdown`; scripts/readme-schedules.mjs writes it).
[[nodiscard]] auto render_schedule_table(std::string_view language = "en") -> std::string;

/// The presets, each with its name in `language` and the simulate command that runs it.
[[nodiscard]] auto render_preset_list(std::string_view language = "en") -> std::string;

}  // namespace pipesim
