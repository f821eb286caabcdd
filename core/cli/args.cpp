#include "args.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <unistd.h>

#include "pipesim/error.h"
#include "pipesim/parse.h"

namespace pipesim::cli {

namespace {

auto join(const std::vector<std::string_view>& items, std::string_view sep, std::string_view prefix) -> std::string {
  std::string out;
  for (std::string_view s : items) out += (out.empty() ? "" : std::string(sep)) + std::string(prefix) + std::string(s);
  return out;
}

}  // namespace

Args::Args(std::string command, std::span<const std::string_view> argv, std::vector<std::string_view> allowed,
           std::vector<std::string_view> flags)
    : command_(std::move(command)) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string_view arg = argv[i];
    if (arg.size() < 3 || arg.substr(0, 2) != "--")
      throw Error(ErrorCode::usage, "unexpected argument '" + std::string(arg) + "' for '" + command_ + "'; options are " +
                  join(allowed, ", ", "--"));
    std::string name(arg.substr(2));
    std::optional<std::string> value;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
    }
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
      throw Error(ErrorCode::usage, "unknown option --" + name + " for '" + command_ + "'; options are " + join(allowed, ", ", "--"));
    if (values_.count(name) != 0) throw Error(ErrorCode::usage, "option --" + name + " is given twice");
    const bool is_flag = std::find(flags.begin(), flags.end(), name) != flags.end();
    if (is_flag) {
      if (value) throw Error(ErrorCode::usage, "option --" + name + " takes no value");
      values_[name] = "";
      continue;
    }
    if (!value) {
      if (i + 1 >= argv.size()) throw Error(ErrorCode::usage, "option --" + name + " needs a value");
      value = std::string(argv[++i]);
    }
    values_[name] = *value;
  }
}

auto colour_wanted(const Args& args) -> bool {
  const std::string choice = args.choice_or("color", "auto", {"auto", "always", "never"});
  if (choice != "auto") return choice == "always";
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  if ((no_color != nullptr && *no_color != '\0') || (term != nullptr && std::string_view(term) == "dumb")) return false;
  return isatty(fileno(stdout)) != 0;
}

auto Args::has(std::string_view name) const -> bool { return values_.find(name) != values_.end(); }

auto Args::text(std::string_view name) const -> std::optional<std::string> {
  const auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

auto Args::text_or(std::string_view name, std::string fallback) const -> std::string {
  return text(name).value_or(std::move(fallback));
}

auto Args::integer_or(std::string_view name, int fallback, int lo, int hi) const -> int {
  const auto t = text(name);
  return t ? parse_whole_in("--" + std::string(name), *t, lo, hi) : fallback;
}

auto Args::count_or(std::string_view name, int fallback, int limit) const -> int {
  const auto t = text(name);
  return t ? parse_count("--" + std::string(name), *t, limit) : fallback;
}

auto Args::number_or(std::string_view name, double fallback, double lo, double hi) const -> double {
  const auto t = text(name);
  return t ? parse_number_in("--" + std::string(name), *t, lo, hi) : fallback;
}

auto Args::choice_or(std::string_view name, std::string fallback, std::vector<std::string_view> choices) const
    -> std::string {
  const auto t = text(name);
  if (!t) return fallback;
  if (std::find(choices.begin(), choices.end(), *t) == choices.end())
    throw Error(ErrorCode::unknown_name, "--" + std::string(name) + " must be one of " + join(choices, "|", "") + ", got '" + *t + "'");
  return *t;
}

namespace {

auto cannot_read(const std::string& what, int code) -> Error {
  return Error(ErrorCode::io, "cannot read " + what + ": " + (code == EISDIR ? "it is a directory" : std::strerror(code)));
}

/// All of `in`, or Error naming `what` with the reason: opening a directory succeeds on Linux and only
/// the read fails (EISDIR), which an unchecked read would turn into an empty text.
auto read_all(std::istream& in, const std::string& what) -> std::string {
  std::string text;
  std::array<char, 1 << 16> buffer{};
  errno = 0;
  while (in.read(buffer.data(), buffer.size()) || in.gcount() > 0)
    text.append(buffer.data(), static_cast<std::size_t>(in.gcount()));
  if (in.bad()) throw cannot_read(what, errno);
  return text;
}

}  // namespace

auto read_file(const std::string& path) -> std::string {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCode::io, "cannot read file '" + path + "'");
  return read_all(in, "file '" + path + "'");
}

auto read_stdin() -> std::string {
  std::string text = read_all(std::cin, "standard input");
  // std::cin reads through C's stdin, whose failed read (`< /tmp`) looks like the end of input to it.
  if (std::ferror(stdin) != 0) throw cannot_read("standard input", errno);
  return text;
}

}  // namespace pipesim::cli
