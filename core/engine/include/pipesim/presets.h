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

}  // namespace pipesim
