#pragma once
// Timing and the report: warm-up, several samples, median and min, a table for people and JSON for
// machines. Plain std::chrono; no benchmark library, so the bench builds wherever the core does.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace pipesim::bench {

struct TimingPlan {
  int samples = 7;            ///< timed samples after the warm-up; the median resists a noisy neighbour
  double min_sample_s = 0.02; ///< each sample repeats the call until it lasts about this long
};

/// Seconds per call: the median and the fastest of the samples.
struct Timing {
  double median_s = 0;
  double min_s = 0;
  int samples = 0;
  int calls_per_sample = 0;
};

/// Written by every timed call so the optimizer cannot drop a call whose result is unused.
extern volatile std::size_t sink;

[[nodiscard]] auto median_and_min(std::vector<double> seconds) -> Timing;

/// Times `call` (returning something sink can absorb as a size). The warm-up (at least two calls and
/// one sample's worth of time) fills caches and the allocator's free lists, and its average sizes the
/// samples, so that fast calls are repeated enough to rise above the clock's grain.
template <typename Call>
auto time_calls(Call&& call, const TimingPlan& plan) -> Timing {
  using clock = std::chrono::steady_clock;
  const auto seconds_since = [](clock::time_point t0) {
    return std::chrono::duration<double>(clock::now() - t0).count();
  };
  auto t0 = clock::now();
  int warm_up = 0;
  do {
    sink = sink + static_cast<std::size_t>(call());
    ++warm_up;
  } while (warm_up < 2 || seconds_since(t0) < plan.min_sample_s);
  const double estimate = std::max(seconds_since(t0) / warm_up, 1e-9);
  const int calls = static_cast<int>(std::clamp(std::ceil(plan.min_sample_s / estimate), 1.0, 1e6));
  std::vector<double> per_call;
  for (int s = 0; s < plan.samples; ++s) {
    t0 = clock::now();
    for (int c = 0; c < calls; ++c) sink = sink + static_cast<std::size_t>(call());
    per_call.push_back(seconds_since(t0) / calls);
  }
  Timing t = median_and_min(std::move(per_call));
  t.calls_per_sample = calls;
  return t;
}

/// CPU seconds of the calling thread: what a call costs, not how long a shared machine made it wait.
[[nodiscard]] auto thread_cpu_seconds() -> double;

/// Times two calls in alternating samples (a, b, a, b, ...) in CPU time of this thread, so that a
/// ratio of the two is taken under the same conditions: a neighbour that slows the machine for a
/// while slows both alike, and time spent descheduled counts for neither. One warm-up call each.
template <typename CallA, typename CallB>
auto time_interleaved(CallA&& a, CallB&& b, int samples) -> std::pair<Timing, Timing> {
  sink = sink + static_cast<std::size_t>(a()) + static_cast<std::size_t>(b());
  std::vector<double> seconds_a;
  std::vector<double> seconds_b;
  for (int s = 0; s < samples; ++s) {
    double t0 = thread_cpu_seconds();
    sink = sink + static_cast<std::size_t>(a());
    seconds_a.push_back(thread_cpu_seconds() - t0);
    t0 = thread_cpu_seconds();
    sink = sink + static_cast<std::size_t>(b());
    seconds_b.push_back(thread_cpu_seconds() - t0);
  }
  std::pair<Timing, Timing> out{median_and_min(std::move(seconds_a)), median_and_min(std::move(seconds_b))};
  out.first.calls_per_sample = out.second.calls_per_sample = 1;
  return out;
}

/// One timed row. `ops` is the ops one call handles (0 when per-op figures mean nothing).
struct TimedRow {
  std::string id;
  std::string section;
  std::string label;
  long long ops = 0;
  Timing timing;
};

/// One measured value that is not a time: bytes per op, a ratio, a file size.
struct ValueRow {
  std::string id;
  std::string section;
  std::string label;
  double value = 0;
  std::string unit;
};

class Report {
 public:
  void add(TimedRow row);
  void add(ValueRow row);
  /// Looks a metric up by name: `<id>.median_ms`, `.ns_per_op`, `.mops_per_s` (from the median),
  /// `.min_ms`, `.min_ns_per_op`, `.best_mops_per_s` (from the fastest sample) of a timed row, or the
  /// id of a value row. Returns NAN when there is no such metric.
  [[nodiscard]] auto metric(const std::string& name) const -> double;
  [[nodiscard]] auto find_timed(const std::string& id) const -> const TimedRow*;
  [[nodiscard]] auto table() const -> std::string;
  [[nodiscard]] auto json() const -> nlohmann::json;

 private:
  void note_section(const std::string& section);
  std::vector<std::string> sections_;  // in the order the cases ran
  std::vector<TimedRow> timed_;
  std::vector<ValueRow> values_;
};

/// The whole file at `path`; throws std::runtime_error "cannot read [what ]path".
[[nodiscard]] auto read_text(const std::string& path, const std::string& what = "") -> std::string;

/// Nanoseconds per op of a timed row from its median (or its fastest sample).
[[nodiscard]] auto ns_per_op(const TimedRow& row, bool fastest = false) -> double;

}  // namespace pipesim::bench
