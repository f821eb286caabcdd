#include "args.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <unistd.h>

#include "output.h"
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
           std::vector<std::string_view> flags, std::vector<std::string_view> repeatable)
    : command_(std::move(command)) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string_view arg = argv[i];
    if (arg.size() < 3 || arg.substr(0, 2) != "--")
      throw Error(ErrorCode::usage, "unexpected argument '" + quoted_input(arg) + "' for '" + command_ + "'; options are " +
                  join(allowed, ", ", "--"));
    std::string name(arg.substr(2));
    std::optional<std::string> value;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
    }
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
      throw Error(ErrorCode::usage, "unknown option --" + quoted_input(name) + " for '" + command_ + "'; options are " + join(allowed, ", ", "--"));
    const bool repeats = std::find(repeatable.begin(), repeatable.end(), name) != repeatable.end();
    if (values_.count(name) != 0 && !repeats) throw Error(ErrorCode::usage, "option --" + name + " is given twice");
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
    if (repeats) repeated_[name].push_back(*value);
  }
}

auto Args::texts(std::string_view name) const -> std::vector<std::string> {
  const auto it = repeated_.find(name);
  return it == repeated_.end() ? std::vector<std::string>{} : it->second;
}

auto colour_wanted(const Args& args) -> bool {
  const std::string choice = args.choice_or("color", "auto", {"auto", "always", "never"});
  if (choice != "auto") return choice == "always";
  const char* no_color = std::getenv("NO_COLOR");
  const char* term = std::getenv("TERM");
  if ((no_color != nullptr && *no_color != '\0') || (term != nullptr && std::string_view(term) == "dumb")) return false;
  return output_is_terminal();
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
    throw Error(ErrorCode::unknown_name, "--" + std::string(name) + " must be one of " + join(choices, "|", "") + ", got '" + quoted_input(*t) + "'");
  return *t;
}

namespace {

/// A file descriptor closed when it goes out of scope (standard input is left open).
class Input {
 public:
  explicit Input(int fd) : fd_(fd) {}
  Input(const Input&) = delete;
  auto operator=(const Input&) -> Input& = delete;
  ~Input() {
    if (fd_ > 0) close(fd_);
  }
  [[nodiscard]] auto fd() const -> int { return fd_; }

 private:
  int fd_;
};

auto mib(std::size_t bytes) -> std::string { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

auto read_input(std::string_view option, const std::string& path, std::size_t max_bytes) -> std::string {
  const bool from_stdin = path == "-";
  const std::string what = "--" + std::string(option) + " " + (from_stdin ? std::string("- (standard input)") : "'" + path + "'");
  const auto cannot_read = [&](int code) {
    return Error(ErrorCode::io, "cannot read " + what + ": " + (code == EISDIR ? "it is a directory" : std::strerror(code)));
  };
  const auto too_large = [&](const std::string& got) {
    return Error(ErrorCode::limit_exceeded, "--" + std::string(option) + " may be at most " + mib(max_bytes) + "; " + what + " " + got);
  };
  const Input in(from_stdin ? STDIN_FILENO : open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (in.fd() < 0) throw cannot_read(errno);
  struct stat info {};
  if (fstat(in.fd(), &info) != 0) throw cannot_read(errno);
  if (S_ISDIR(info.st_mode)) throw cannot_read(EISDIR);
  // A regular file says its size: one over the limit (a sparse gigabyte too) is refused unread.
  if (S_ISREG(info.st_mode) && static_cast<unsigned long long>(info.st_size) > max_bytes)
    throw too_large("has " + std::to_string(info.st_size) + " bytes");
  std::string text;
  std::array<char, 1 << 16> buffer{};
  for (;;) {
    const ssize_t n = read(in.fd(), buffer.data(), buffer.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      throw cannot_read(errno);
    }
    if (n == 0) break;
    if (text.size() + static_cast<std::size_t>(n) > max_bytes) throw too_large("gives more than that");
    text.append(buffer.data(), static_cast<std::size_t>(n));
  }
  if (text.empty()) throw Error(ErrorCode::bad_import, what + " is empty");
  return text;
}

}  // namespace pipesim::cli
