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
  /// `repeatable` lists those that may be given more than once (read them with texts()).
  Args(std::string command, std::span<const std::string_view> argv, std::vector<std::string_view> allowed,
       std::vector<std::string_view> flags = {}, std::vector<std::string_view> repeatable = {});

  [[nodiscard]] auto has(std::string_view name) const -> bool;
  [[nodiscard]] auto text(std::string_view name) const -> std::optional<std::string>;
  /// Every value of a repeatable option, in the order given.
  [[nodiscard]] auto texts(std::string_view name) const -> std::vector<std::string>;
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
  std::map<std::string, std::vector<std::string>, std::less<>> repeated_;
};

/// Whether text output gets ANSI colours: --color always|never decides; auto (the default) colours
/// only a terminal, and not when NO_COLOR is set to anything non-empty (no-color.org) or TERM=dumb.
[[nodiscard]] auto colour_wanted(const Args& args) -> bool;

/// The text given to a file option such as --schedule-file: the file at `path`, or standard input for
/// "-". It is bounded while it is read: a regular file larger than `max_bytes` is refused before any of
/// it is read, anything else (a pipe, /dev/zero) as soon as more than `max_bytes` have arrived, so no
/// input costs more memory than the limit. Throws Error naming `option`, the path and the reason: io
/// when it cannot be read (with the system's reason), limit_exceeded over the limit, bad_import when
/// it is empty.
[[nodiscard]] auto read_input(std::string_view option, const std::string& path, std::size_t max_bytes) -> std::string;

}  // namespace pipesim::cli
