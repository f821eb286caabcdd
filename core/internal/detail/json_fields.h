#pragma once
// Reading checked fields out of JSON that people hand to pipesim (schedules, traces).
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "pipesim/error.h"

namespace pipesim::detail {

/// A whole number in [lo, hi] at `key` of `object`; `fallback` when absent (nullopt: required).
/// Errors read "LABEL is missing" and "LABEL must be a whole number from LO to HI", where `label()`
/// names the field as its caller's other messages do; it is only called to word an error.
template <typename Label>
[[nodiscard]] auto whole_field(const nlohmann::json& object, const char* key, int lo, int hi, std::optional<int> fallback,
                               const Label& label) -> int {
  const auto it = object.find(key);
  if (it == object.end()) {
    if (fallback) return *fallback;
    throw Error(ErrorCode::bad_import, label() + " is missing", {"field.missing", {{"name", label()}}});
  }
  if (!it->is_number_integer() || *it < lo || *it > hi)
    throw Error(ErrorCode::bad_import, label() + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi),
                {"field.whole_range", {{"name", label()}, {"min", std::to_string(lo)}, {"max", std::to_string(hi)}}});
  return it->get<int>();
}

}  // namespace pipesim::detail
