#pragma once
// What every fuzz target shares. A pipesim::Error is the expected refusal of bad input; anything else
// that escapes (another exception type, an Error coded `internal`, a broken property) is a finding,
// and it aborts so that libFuzzer keeps the input that caused it. Crashes, sanitizer reports, hangs
// and runaway memory are caught by libFuzzer itself (scripts/fuzz.sh sets -timeout and -rss_limit_mb).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>

#include "pipesim/error.h"

namespace pipesim::fuzz {

[[noreturn]] inline void finding(const char* what, const char* detail = "") {
  std::fprintf(stderr, "pipesim fuzz finding: %s%s%s\n", what, *detail != '\0' ? ": " : "", detail);
  std::abort();
}

/// A property every input must keep, such as "an export reads back as the same schedule".
inline void require(bool holds, const char* property) {
  if (!holds) finding("property violated", property);
}

/// Runs `body`, which may refuse its input with pipesim::Error and in no other way.
template <typename Body>
void refusing_only_with_error(Body&& body) {
  try {
    body();
  } catch (const Error& e) {
    require(*e.what() != '\0', "an Error says what is wrong");
    require(e.code() != ErrorCode::internal, "no input breaks an invariant of pipesim itself (ErrorCode::internal)");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "exception type %s\n", typeid(e).name());
    finding("an exception other than pipesim::Error escaped", e.what());
  } catch (...) {
    finding("something that is not a std::exception was thrown");
  }
}

/// The fuzz input as text; the library's parsers all take text.
inline auto as_text(const std::uint8_t* data, std::size_t size) -> std::string_view {
  return {reinterpret_cast<const char*>(data), size};
}

/// The first line of `text` (without its '\n'), and `text` moved past it.
inline auto take_line(std::string_view& text) -> std::string_view {
  const std::size_t end = text.find('\n');
  const std::string_view line = text.substr(0, end);
  text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
  return line;
}

/// The next whitespace-separated word of `text`, and `text` moved past it; empty at the end.
inline auto take_word(std::string_view& text) -> std::string_view {
  const auto space = [](char ch) { return ch == ' ' || ch == '\t' || ch == '\r'; };
  std::size_t begin = 0;
  while (begin < text.size() && space(text[begin])) ++begin;
  std::size_t end = begin;
  while (end < text.size() && !space(text[end])) ++end;
  const std::string_view word = text.substr(begin, end - begin);
  text.remove_prefix(end);
  return word;
}

/// `word` as an int, saturated at the int range so that huge values stay huge; nullopt when it is no
/// number. The harness decodes its own configuration leniently: refusing values is the library's job.
inline auto saturated_int(std::string_view word) -> std::optional<int> {
  const std::string s(word);
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || end == s.c_str()) return std::nullopt;
  if (v < std::numeric_limits<int>::min()) return std::numeric_limits<int>::min();
  if (v > std::numeric_limits<int>::max()) return std::numeric_limits<int>::max();
  return static_cast<int>(v);
}

}  // namespace pipesim::fuzz
