#include "args.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "pipesim/costs.h"
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
      throw Error("unexpected argument '" + std::string(arg) + "' for '" + command_ + "'; options are " +
                  join(allowed, ", ", "--"));
    std::string name(arg.substr(2));
    std::optional<std::string> value;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
    }
    if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
      throw Error("unknown option --" + name + " for '" + command_ + "'; options are " + join(allowed, ", ", "--"));
    if (values_.count(name) != 0) throw Error("option --" + name + " is given twice");
    const bool is_flag = std::find(flags.begin(), flags.end(), name) != flags.end();
    if (is_flag) {
      if (value) throw Error("option --" + name + " takes no value");
      values_[name] = "";
      continue;
    }
    if (!value) {
      if (i + 1 >= argv.size()) throw Error("option --" + name + " needs a value");
      value = std::string(argv[++i]);
    }
    values_[name] = *value;
  }
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
  if (!t) return fallback;
  const std::string range = "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
  char* end = nullptr;
  errno = 0;
  const long long v = t->empty() ? 0 : std::strtoll(t->c_str(), &end, 10);
  if (t->empty() || end != t->c_str() + t->size() || errno == ERANGE)
    throw Error("--" + std::string(name) + " must be " + range + ", got '" + *t + "'");
  if (v < lo || v > hi) throw Error("--" + std::string(name) + " must be " + range + ", got " + *t);
  return static_cast<int>(v);
}

auto Args::number_or(std::string_view name, double fallback, double lo, double hi) const -> double {
  const auto t = text(name);
  if (!t) return fallback;
  const std::string range = "a number from " + format_number(lo) + " to " + format_number(hi);
  const auto v = parse_finite(*t);
  if (!v) throw Error("--" + std::string(name) + " must be " + range + ", got '" + *t + "'");
  if (*v < lo || *v > hi) throw Error("--" + std::string(name) + " must be " + range + ", got " + *t);
  return *v;
}

auto Args::choice_or(std::string_view name, std::string fallback, std::vector<std::string_view> choices) const
    -> std::string {
  const auto t = text(name);
  if (!t) return fallback;
  if (std::find(choices.begin(), choices.end(), *t) == choices.end())
    throw Error("--" + std::string(name) + " must be one of " + join(choices, "|", "") + ", got '" + *t + "'");
  return *t;
}

auto read_file(const std::string& path) -> std::string {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read file '" + path + "'");
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

}  // namespace pipesim::cli
