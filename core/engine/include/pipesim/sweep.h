#pragma once
// Bubble curves: one request re-run with one parameter swept, for the charts of the page.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "pipesim/limits.h"
#include "pipesim/run.h"

namespace pipesim {

enum class SweepAxis { micro_batches, ranks };

/// The most points one sweep runs: a chart needs far fewer, and each point is a whole simulation.
inline constexpr std::size_t max_sweep_points = limits::max_sweep_points;

/// Throws Error unless `name` is "micro_batches" or "ranks" (also accepts "micro-batches").
[[nodiscard]] auto parse_sweep_axis(std::string_view name) -> SweepAxis;

struct SweepPoint {
  int value = 0;              ///< the swept parameter
  bool valid = false;         ///< false where the schedule refuses the configuration
  double makespan = 0;
  double bubble_fraction = 0;
  double span_bubble_fraction = 0;
  double max_bubble = 0;
  double formula_value = 0;   ///< the closed form at this point
  bool formula_exact = false;
  int peak_activations = 0;
  std::string error;          ///< why the point is invalid
};

/// Throws Error when a sweep of `points` values would exceed max_sweep_points; callers that gather the
/// values themselves check before they do.
void check_sweep_size(std::size_t points);

/// Runs `request` once per value of the axis (at most max_sweep_points, and at most
/// limits::max_sweep_chunks chunks in all its runs together, else Error before any run). Invalid points are
/// kept (valid = false) so a curve can show gaps where a schedule's rules exclude a size (e.g. DualPipe
/// at odd micro-batch counts).
[[nodiscard]] auto sweep(const RunRequest& request, SweepAxis axis, const std::vector<int>& values)
    -> std::vector<SweepPoint>;

}  // namespace pipesim
