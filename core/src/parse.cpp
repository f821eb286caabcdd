#include "pipesim/parse.h"

#include <cmath>
#include <cstdlib>
#include <string>

#include "detail/text.h"

namespace pipesim {

auto parse_finite(std::string_view text) -> std::optional<double> {
  const std::string s(detail::trim(text));
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace pipesim
