#pragma once
// Named starting points that reproduce published figures and the lesson's exercises: data the CLI
// lists and the page offers, written once here.
#include <span>
#include <string_view>

#include "pipesim/language.h"

namespace pipesim {

struct Preset {
  std::string_view id;              ///< stable key, e.g. "fig5"
  Translated<std::string_view> name;  ///< what a menu shows, in every language
  std::string_view schedule;        ///< a name of schedules()
  int ranks = 8;
  int micro_batches = 20;
  int virtual_stages = 1;
  std::string_view cost;                        ///< parse_costs() text, e.g. "F=1,B=2,W=1,FB=3"
  std::span<const std::string_view> compare;  ///< schedules shown beside it, by name
};

/// Every preset, in menu order.
[[nodiscard]] auto presets() -> std::span<const Preset>;

/// One run of the guided lesson: a schedule at a size, priced at lesson_cost().
struct LessonRun {
  std::string_view schedule;  ///< a name of schedules()
  int ranks = 4;
  int micro_batches = 8;
};

/// A step of the guided lesson ("Learn" on the page): the run it shows, and the runs its question and
/// answer set beside it. The page words each step (its texts are keyed by `id`) and asks its question;
/// which runs a step uses is written here once. They live with the presets, in the engine, because the
/// page sets a step's state at start-up, before the course module is loaded.
struct LessonStep {
  std::string_view id;                    ///< stable key, e.g. "s1": the page's texts learn.<id>.*
  LessonRun run;                          ///< what the step shows
  std::span<const LessonRun> compared;  ///< what it compares with, in the order its question uses
};

/// The costs every lesson run is priced at: parse_costs() text.
[[nodiscard]] auto lesson_cost() -> std::string_view;

/// The guided lesson's steps, in order.
[[nodiscard]] auto lesson_steps() -> std::span<const LessonStep>;

}  // namespace pipesim
