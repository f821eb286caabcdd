#pragma once
// A small, strict option parser: `--name value` or `--name=value`, each option at most once,
// anything unknown or malformed is an Error with a message naming what is allowed.
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pipesim::cli {

class Args {
 public:
  /// `allowed` lists the options of the command (without dashes); `flags` those that take no value.
  Args(std::string command, std::span<const std::string_view> argv, std::vector<std::string_view> allowed,
       std::vector<std::string_view> flags = {});

  [[nodiscard]] auto has(std::string_view name) const -> bool;
  [[nodiscard]] auto text(std::string_view name) const -> std::optional<std::string>;
  [[nodiscard]] auto text_or(std::string_view name, std::string fallback) const -> std::string;
  /// A whole number in [lo, hi]; throws Error naming the option otherwise.
  [[nodiscard]] auto integer_or(std::string_view name, int fallback, int lo, int hi) const -> int;
  /// The size of a run (ranks, micro-batches): only its form is checked here, its range by run(), as
  /// for the WebAssembly module (see parse_count).
  [[nodiscard]] auto count_or(std::string_view name, int fallback, int limit) const -> int;
  /// A finite number in [lo, hi].
  [[nodiscard]] auto number_or(std::string_view name, double fallback, double lo, double hi) const -> double;
  /// One of `choices`.
  [[nodiscard]] auto choice_or(std::string_view name, std::string fallback, std::vector<std::string_view> choices) const
      -> std::string;

 private:
  std::string command_;
  std::map<std::string, std::string, std::less<>> values_;
};

/// Whether text output gets ANSI colours: --color always|never decides; auto (the default) colours
/// only a terminal, and not when NO_COLOR is set to anything non-empty (no-color.org) or TERM=dumb.
[[nodiscard]] auto colour_wanted(const Args& args) -> bool;

/// Reads a whole file; throws Error naming the path (and why, e.g. "it is a directory") when it cannot.
[[nodiscard]] auto read_file(const std::string& path) -> std::string;

/// Reads all of standard input, checked like read_file.
[[nodiscard]] auto read_stdin() -> std::string;

}  // namespace pipesim::cli
