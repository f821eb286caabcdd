#pragma once
// One function per `pipesim` sub-command. Each returns the exit status and throws Error on bad input.
#include <span>
#include <string>
#include <string_view>

namespace pipesim::cli {

using Argv = std::span<const std::string_view>;

auto run_simulate(Argv args) -> int;
/// simulate's --format choices as its usage lists them: "text|summary|svg|...".
auto simulate_format_choices() -> std::string;
auto run_list(Argv args) -> int;
auto run_presets(Argv args) -> int;
auto run_quiz(Argv args) -> int;
auto run_lesson(Argv args) -> int;
auto run_plan(Argv args) -> int;
auto run_overlap(Argv args) -> int;

}  // namespace pipesim::cli
