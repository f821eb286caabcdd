#pragma once
// Per-stage op durations. Units are arbitrary (the figures use F = 1).
#include <string>
#include <string_view>

#include "pipesim/op.h"

namespace pipesim {

struct Costs {
  double f = 1;     ///< forward of one chunk
  double b = 2;     ///< full backward (input + weight gradients)
  double w = 1;     ///< weight-gradient part of B; an input-only backward I costs b - w
  double fb = 3;    ///< an overlapped forward + backward pair, in [max(f, b), f + b]
  double comm = 0;  ///< latency of one send between two ranks

  [[nodiscard]] auto i() const -> double { return b - w; }
  [[nodiscard]] auto duration(OpKind kind) const -> double;
  friend bool operator==(const Costs&, const Costs&) = default;
};

/// The figure costs of DeepSeek-V3 Fig. 5: F=1, B=2, W=1, F&B=3, no communication cost.
[[nodiscard]] auto default_costs() -> Costs;

/// Parses "F=1,B=2,W=1,FB=3,comm=0" (keys case-insensitive, any subset, `F&B` accepted for FB).
/// A missing FB defaults to F + B (no overlap credit). Throws Error on bad input.
[[nodiscard]] auto parse_costs(std::string_view text) -> Costs;

/// The range of one cost other than FB: 0, or from min_cost to max_cost. The bounds keep every sum of
/// a run finite and every duration a normal number.
inline constexpr double min_cost = 1e-6;
inline constexpr double max_cost = 1e12;

/// The costs an overlapped pair may take: at least its longer half (perfect overlap), at most both
/// halves (none). The one statement of max(F,B) <= FB <= F+B: validate_costs and the page read it.
struct FbRange {
  double lo = 0;
  double hi = 0;
};
[[nodiscard]] constexpr auto fb_range(double f, double b) -> FbRange { return {f > b ? f : b, f + b}; }

/// Throws Error unless all costs are finite, non-negative, in range, W <= B and FB within fb_range.
/// The refusal's field (Error::field) is the cost it is about: "cost.F", ..., or "cost" for the text.
void validate_costs(const Costs& costs);

/// "F=1,B=2,W=1,FB=3,comm=0" with the shortest exact decimals.
[[nodiscard]] auto format_costs(const Costs& costs) -> std::string;

/// Shortest decimal that reads back as the same double (1, 2.5, 0.1).
[[nodiscard]] auto format_number(double value) -> std::string;

}  // namespace pipesim
