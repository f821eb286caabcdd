#include "pipesim/parse.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

#include "detail/text.h"
#include "pipesim/costs.h"
#include "pipesim/error.h"

namespace pipesim {

auto parse_finite(std::string_view text) -> std::optional<double> {
  const std::string s(detail::trim(text));
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

auto quoted_input(std::string_view text) -> std::string {
  // Count characters by their first byte (a UTF-8 continuation byte is 10xxxxxx): the cut falls
  // between two characters, so the quote stays valid UTF-8 whatever was pasted.
  const auto starts_character = [](char c) { return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U; };
  std::size_t characters = 0;
  std::size_t keep_bytes = 0;  // the bytes of the first max_quoted_chars - 3 characters
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!starts_character(text[i])) continue;
    if (characters == max_quoted_chars - 3) keep_bytes = i;
    if (++characters > max_quoted_chars) return std::string(text.substr(0, keep_bytes)) + "...";
  }
  return std::string(text);
}

namespace {

// `text` as a whole decimal number, or nothing when it is not one or overflows a long long. Spaces
// around it are dropped, on both sides as parse_finite does (strtoll alone skips leading ones only).
auto whole_number(std::string_view text) -> std::optional<long long> {
  const std::string s(detail::trim(text));
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (end != s.c_str() + s.size() || errno == ERANGE) return std::nullopt;
  return v;
}

}  // namespace

auto parse_whole_in(const std::string& name, std::string_view text, int lo, int hi) -> int {
  const std::string s = quoted_input(text);
  const std::string range = "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
  const auto v = whole_number(text);
  const Wording wording{"number.whole_range", {{"name", name}, {"min", std::to_string(lo)}, {"max", std::to_string(hi)}, {"value", s}}};
  if (!v) throw Error(ErrorCode::bad_value, name + " must be " + range + ", got '" + s + "'", wording);
  if (*v < lo || *v > hi) throw Error(ErrorCode::bad_value, name + " must be " + range + ", got " + s, wording);
  return static_cast<int>(*v);
}

auto parse_count(const std::string& name, std::string_view text, int limit) -> int {
  const std::string s = quoted_input(text);
  const auto v = whole_number(text);
  // Past what an int holds is no count either, as in the WebAssembly module (which reads past 1e9 so).
  if (!v || *v < std::numeric_limits<int>::min() || *v > std::numeric_limits<int>::max())
    throw Error(ErrorCode::bad_value,
                name + " must be a whole number from 1 to " + std::to_string(limit) + ", got '" + s + "'",
                {"number.whole_range", {{"name", name}, {"min", "1"}, {"max", std::to_string(limit)}, {"value", s}}});
  return static_cast<int>(*v);
}

auto parse_number_in(const std::string& name, std::string_view text, double lo, double hi) -> double {
  const std::string range = "a number from " + format_number(lo) + " to " + format_number(hi);
  const auto v = parse_finite(text);
  const std::string quoted = quoted_input(text);
  const Wording wording{"number.range", {{"name", name}, {"min", format_number(lo)}, {"max", format_number(hi)}, {"value", quoted}}};
  if (!v) throw Error(ErrorCode::bad_value, name + " must be " + range + ", got '" + quoted + "'", wording);
  if (*v < lo || *v > hi) throw Error(ErrorCode::bad_value, name + " must be " + range + ", got " + quoted, wording);
  return *v;
}

}  // namespace pipesim
