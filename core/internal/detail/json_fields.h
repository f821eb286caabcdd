#pragma once
// Reading checked fields out of JSON that people hand to pipesim (schedules, traces), and saying where
// and why a JSON text does not parse, in facts a page can word in any language.
#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "pipesim/error.h"

namespace pipesim::detail {

/// Where a field sits, for a refusal: `text` names it in English as the caller's other messages do
/// ("rank 0, op 0: 'mb'"); `place` says where in a wording's language-free terms (at_kind, at and the
/// values that place quotes: web/src/i18n/refusals.ts, PLACES), to which the wording adds the field's
/// JSON key as {name}, so no English phrase reaches a pt-BR or zh-CN sentence.
struct FieldPlace {
  std::string text;
  std::vector<std::pair<std::string, std::string>> place;
};

/// A whole number in [lo, hi] at `key` of `object`; `fallback` when absent (nullopt: required).
/// Errors read "LABEL is missing" and "LABEL must be a whole number from LO to HI", where `where()`
/// (a FieldPlace) names the field as its caller's other messages do; it is only called to word an error.
template <typename Where>
[[nodiscard]] auto whole_field(const nlohmann::json& object, const char* key, int lo, int hi, std::optional<int> fallback,
                               const Where& where) -> int {
  const auto wording = [&](std::string rule, std::vector<std::pair<std::string, std::string>> values) {
    FieldPlace place = where();
    values.insert(values.end(), place.place.begin(), place.place.end());
    return Wording{std::move(rule), std::move(values)};
  };
  const auto it = object.find(key);
  if (it == object.end()) {
    if (fallback) return *fallback;
    throw Error(ErrorCode::bad_import, where().text + " is missing", wording("field.missing", {{"name", key}}));
  }
  if (!it->is_number_integer() || *it < lo || *it > hi)
    throw Error(ErrorCode::bad_import, where().text + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi),
                wording("field.whole_range", {{"name", key}, {"min", std::to_string(lo)}, {"max", std::to_string(hi)}}));
  return it->get<int>();
}

/// Why and where a JSON text fails to parse, as a page words it: the line and column (both from 1,
/// counted in bytes as nlohmann counts them) of the byte nlohmann stopped at, and a reason key
/// (web/src/i18n/refusals.ts, REASONS) as far as nlohmann's exception ids and lexer tell them apart.
struct JsonFailure {
  std::size_t line = 1;
  std::size_t column = 0;
  std::string reason;
};

/// The reason key of nlohmann's exception `id` with message `what`: parse_error.101 is any syntax
/// error, told apart by the lexer's words; 102 and 103 are bad \u escapes; out_of_range.406 is a
/// number too large for a double (1e400).
[[nodiscard]] inline auto json_failure_reason(int id, std::string_view what) -> std::string {
  const auto says = [&](std::string_view words) { return what.find(words) != std::string_view::npos; };
  if (id == 406) return "number_out_of_range";
  if (id == 102 || id == 103 || says("invalid string")) return "invalid_string";
  if (id != 101) return "malformed";
  if (says("invalid literal")) return "invalid_literal";
  if (says("invalid number")) return "invalid_number";
  if (says("unexpected end of input")) return "unexpected_end";
  if (says("; expected end of input")) return "trailing_text";
  return "unexpected_token";
}

/// Line and column of the `byte`-th byte read (1-based; one past the end at the end of input), as
/// nlohmann's own messages give them: a newline read ends its line.
[[nodiscard]] inline auto line_and_column(std::string_view text, std::size_t byte) -> std::pair<std::size_t, std::size_t> {
  const std::string_view read = text.substr(0, std::min(byte, text.size()));
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < read.size(); ++i)
    if (read[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  return {line, byte - line_start};
}

/// Where `text` fails to parse, found by parsing it again without building anything (only called
/// once a parse has failed; nlohmann's SAX parser keeps its nesting on the heap, so depth costs no stack).
[[nodiscard]] inline auto json_failure(std::string_view text) -> JsonFailure {
  struct Locator {
    using json = nlohmann::json;
    std::size_t byte = 0;
    int id = 0;
    std::string what;
    bool null() { return true; }
    bool boolean(bool) { return true; }
    bool number_integer(json::number_integer_t) { return true; }
    bool number_unsigned(json::number_unsigned_t) { return true; }
    bool number_float(json::number_float_t, const json::string_t&) { return true; }
    bool string(json::string_t&) { return true; }
    bool binary(json::binary_t&) { return true; }
    bool start_object(std::size_t) { return true; }
    bool key(json::string_t&) { return true; }
    bool end_object() { return true; }
    bool start_array(std::size_t) { return true; }
    bool end_array() { return true; }
    bool parse_error(std::size_t position, const std::string&, const nlohmann::json::exception& e) {
      byte = position;
      id = e.id;
      what = e.what();
      return false;
    }
  } locator;
  nlohmann::json::sax_parse(text, &locator);
  const auto [line, column] = line_and_column(text, locator.byte);
  return {line, column, json_failure_reason(locator.id, locator.what)};
}

}  // namespace pipesim::detail
