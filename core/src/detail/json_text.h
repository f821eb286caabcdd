#pragma once
// How pipesim writes numbers into JSON and shows JSON values in error messages.
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "pipesim/error.h"

namespace pipesim::detail {

/// Integral values as integers (66, not 66.0), so the contract reads like the figures.
[[nodiscard]] inline auto json_number(double v) -> nlohmann::json {
  if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9.0e15) return static_cast<long long>(v);
  return v;
}

/// How deep and how many values a JSON document pipesim reads may have. The deepest document it
/// understands nests five levels ({"per_rank": [{"ops": [{...}]}]}); the count is that of a 64 MiB
/// Chrome trace written by pipesim, the largest document read back. Checked while parsing, at each value
/// before it is stored, so 64 MiB of '[' or of {} costs no more than the largest real document.
inline constexpr int max_json_depth = 32;
inline constexpr std::size_t max_json_values = std::size_t{1} << 23;

/// nlohmann::json::parse with those bounds: over them, Error (limit_exceeded) naming `what`; malformed
/// text throws nlohmann's own exceptions, as parse() does.
[[nodiscard]] inline auto parse_json_within(std::string_view text, std::string_view what,
                                           std::size_t max_values = max_json_values) -> nlohmann::json {
  std::size_t values = 0;
  const auto bounded = [&](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
    using event_t = nlohmann::json::parse_event_t;
    if ((event == event_t::object_start || event == event_t::array_start) && depth >= max_json_depth)
      throw Error(ErrorCode::limit_exceeded, std::string(what) + " nests deeper than " + std::to_string(max_json_depth) +
                                                 " arrays and objects, more than any document pipesim reads");
    if ((event == event_t::value || event == event_t::object_start || event == event_t::array_start) && ++values > max_values)
      throw Error(ErrorCode::limit_exceeded, std::string(what) + " has more than " + std::to_string(max_values) +
                                                 " values, more than any document pipesim reads");
    return true;
  };
  return nlohmann::json::parse(text, bounded);
}

/// A value as an error message shows it: scalars as written (strings cut to 40 characters), arrays and
/// objects by their type only. Dumping a hostile input would recurse without bound on deep nesting and
/// would put megabytes into a one-line message.
template <typename Json>
[[nodiscard]] auto describe_json(const Json& v) -> std::string {
  if (v.is_array() || v.is_object()) return std::string("an ") + (v.is_array() ? "array" : "object");
  std::string text = v.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

}  // namespace pipesim::detail
