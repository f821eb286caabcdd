#pragma once
// How pipesim writes numbers into JSON and shows JSON values in error messages.
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

namespace pipesim::detail {

/// Integral values as integers (66, not 66.0), so the contract reads like the figures.
[[nodiscard]] inline auto json_number(double v) -> nlohmann::json {
  if (std::isfinite(v) && std::floor(v) == v && std::fabs(v) < 9.0e15) return static_cast<long long>(v);
  return v;
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
