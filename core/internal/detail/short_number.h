#pragma once
// Numbers for people: derivations and text views round to a few significant digits, while the JSON
// keeps every bit.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "pipesim/costs.h"

namespace pipesim::detail {

/// `value` with at most `digits` significant digits and no trailing zeros: 5549.89, 1.17857, 0.5.
[[nodiscard]] inline auto short_number(double value, int digits = 6) -> std::string {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, value);
  const double rounded = std::strtod(buf, nullptr);
  return format_number(rounded);
}

}  // namespace pipesim::detail
