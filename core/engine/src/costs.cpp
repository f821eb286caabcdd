#include "pipesim/costs.h"

#include "pipesim/cost_text.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string_view>
#include <string>

#include "detail/text.h"
#include "pipesim/error.h"
#include "pipesim/parse.h"

namespace pipesim {

namespace {

/// The refusal's field for one cost key ("cost.FB"); "cost" is the text as a whole.
auto cost_field(std::string_view key) -> std::string { return "cost." + std::string(key); }

auto parse_cost_value(std::string_view key, std::string_view text) -> double {
  const auto value = parse_finite(text);
  if (!value)
    throw Error(ErrorCode::bad_value, "cost " + std::string(key) + " must be a number, got '" + quoted_input(detail::trim(text)) + "'",
                {"cost.not_number", {{"cost", std::string(key)}, {"value", quoted_input(detail::trim(text))}}}, cost_field(key));
  return *value;
}

}  // namespace

auto Costs::duration(OpKind kind) const -> double {
  switch (kind) {
    case OpKind::F: return f;
    case OpKind::B: return b;
    case OpKind::I: return i();
    case OpKind::W: return w;
    case OpKind::FB: return fb;
  }
  return 0;
}

auto default_costs() -> Costs { return Costs{}; }

auto read_costs(std::string_view text) -> Costs {
  Costs costs;
  bool fb_given = false;
  std::set<std::string> seen;
  for (const detail::Assignment& a : detail::split_assignments(text)) {
    if (!a.has_value)
      throw Error(ErrorCode::bad_value, "cost '" + std::string(a.item) + "' must be KEY=VALUE with KEY one of F, B, W, FB, comm",
                  {"cost.assignment", {{"value", std::string(a.item)}}}, "cost");
    std::string key = detail::lower(a.key);
    if (key == "f&b") key = "fb";
    if (key == "c") key = "comm";
    if (!seen.insert(key).second) throw Error(ErrorCode::bad_value, "cost " + std::string(a.key) + " is given twice", {"cost.twice", {{"cost", std::string(a.key)}}}, "cost");
    const std::string_view value_text = a.value;
    if (key == "f") costs.f = parse_cost_value("F", value_text);
    else if (key == "b") costs.b = parse_cost_value("B", value_text);
    else if (key == "w") costs.w = parse_cost_value("W", value_text);
    else if (key == "fb") { costs.fb = parse_cost_value("FB", value_text); fb_given = true; }
    else if (key == "comm") costs.comm = parse_cost_value("comm", value_text);
    else throw Error(ErrorCode::unknown_name, "unknown cost '" + std::string(a.key) + "'; known costs are F, B, W, FB, comm",
                      {"cost.unknown", {{"cost", std::string(a.key)}}}, "cost");
  }
  if (!fb_given) costs.fb = costs.f + costs.b;
  return costs;
}

auto parse_costs(std::string_view text) -> Costs {
  Costs costs = read_costs(text);
  validate_costs(costs);
  return costs;
}

void validate_costs(const Costs& c) {
  // A subnormal or an overflowing cost would turn the timeline into zeros or infinities.
  constexpr double smallest = min_cost;
  constexpr double largest = max_cost;
  const auto check_non_negative = [](const char* name, double v) {
    if (!std::isfinite(v) || v < 0)
      throw Error(ErrorCode::bad_value, std::string("cost ") + name + " must be a finite number >= 0, got " + format_number(v),
                  {"cost.negative", {{"cost", name}, {"value", format_number(v)}}}, cost_field(name));
    // FB is bounded by F and B below.
    if (std::string_view(name) != "FB" && v != 0 && (v < smallest || v > largest))
      throw Error(ErrorCode::bad_value, std::string("cost ") + name + " must be 0 or between " + format_number(smallest) + " and " +
                  format_number(largest) + ", got " + format_number(v),
                  {"cost.range", {{"cost", name}, {"min", format_number(smallest)}, {"max", format_number(largest)}, {"value", format_number(v)}}},
                  cost_field(name));
  };
  check_non_negative("F", c.f);
  check_non_negative("B", c.b);
  check_non_negative("W", c.w);
  check_non_negative("FB", c.fb);
  check_non_negative("comm", c.comm);
  if (c.w > c.b)
    throw Error(ErrorCode::bad_value, "cost W (" + format_number(c.w) + ") must not exceed B (" + format_number(c.b) +
                "): B is the full backward and contains W",
                {"cost.w_exceeds_b", {{"w", format_number(c.w)}, {"b", format_number(c.b)}}}, cost_field("W"));
  if (c.f + c.b == 0)
    throw Error(ErrorCode::bad_value, "costs F and B cannot both be 0: a pipeline with no work has no timeline", {"cost.no_work", {}}, "cost");
  const auto [lo, hi] = fb_range(c.f, c.b);
  // A relative tolerance keeps FB = F + B valid when the sum is not exactly representable.
  const double eps = 1e-12 * hi;
  if (c.fb < lo - eps || c.fb > hi + eps)
    throw Error(ErrorCode::bad_value, "cost FB (" + format_number(c.fb) + ") must lie in [max(F,B), F+B] = [" + format_number(lo) + ", " +
                format_number(hi) + "]: an overlapped pair takes at least its longer half and at most both",
                {"cost.fb_range", {{"fb", format_number(c.fb)}, {"lo", format_number(lo)}, {"hi", format_number(hi)}}}, cost_field("FB"));
}

auto format_costs(const Costs& c) -> std::string {
  return "F=" + format_number(c.f) + ",B=" + format_number(c.b) + ",W=" + format_number(c.w) +
         ",FB=" + format_number(c.fb) + ",comm=" + format_number(c.comm);
}

auto format_number(double value) -> std::string {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";
  char buf[400];
  // Fixed notation reads best for times and costs; very small or large values fall back to %g.
  if (std::fabs(value) >= 1e-6 && std::fabs(value) < 1e15) {
    for (int decimals = 0; decimals <= 17; ++decimals) {
      std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
      if (std::strtod(buf, nullptr) == value) return buf;
    }
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, value);
    if (std::strtod(buf, nullptr) == value) break;
  }
  return buf;
}

}  // namespace pipesim
