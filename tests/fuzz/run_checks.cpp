#include "run_checks.h"

#include <cmath>
#include <string>

#include "fuzz_support.h"
#include "pipesim/custom.h"
#include "pipesim/report.h"

namespace pipesim::fuzz {

namespace {

/// Reads `text` back as a custom schedule; an Error here means an export pipesim cannot read.
auto read_back(const std::string& text, const char* what) -> Schedule {
  try {
    return parse_custom_schedule(text);
  } catch (const Error& e) {
    finding(what, e.what());
  }
}

auto same_ops(const Schedule& a, const Schedule& b) -> bool {
  return a.ranks() == b.ranks() && a.rank_begin == b.rank_begin && a.ops == b.ops;
}

void check_timeline(const Run& run) {
  const Timeline& t = run.timeline;
  require(t.start.size() == run.schedule.ops.size() && t.end.size() == run.schedule.ops.size(),
          "the timeline has one start and one end per op");
  for (std::size_t k = 0; k < t.start.size(); ++k)
    require(std::isfinite(t.start[k]) && std::isfinite(t.end[k]) && 0 <= t.start[k] && t.start[k] <= t.end[k],
            "every op starts at a finite time >= 0 and ends no earlier");
}

void check_metrics(const Run& run) {
  const Metrics& m = run.metrics;
  // Busy time and makespan are sums and maxima of the same doubles; allow their rounding.
  constexpr double slack = 1e-9;
  require(std::isfinite(m.makespan) && m.makespan >= 0, "the makespan is finite and >= 0");
  require(m.bubble_fraction >= -slack && m.bubble_fraction <= 1 + slack, "the bubble fraction lies in [0, 1]");
  require(static_cast<int>(m.per_rank.size()) == run.schedule.ranks(), "metrics has one entry per rank");
  for (const RankMetrics& r : m.per_rank)
    require(r.busy <= m.makespan * (1 + slack) + slack && r.peak_activations >= 0, "no rank is busier than the makespan");
}

void check_round_trips(const Run& run, const TraceOptions& trace_options) {
  const Schedule& s = run.schedule;
  const std::string json = to_json(run, Detail::full).dump();
  require(same_ops(read_back(json, "a --format json export does not read back"), s),
          "a --format json export reads back as the same ops");
  const std::string trace = to_chrome_trace(run, trace_options);
  const bool exact_times = trace_options.us_per_unit >= TraceOptions::min_us_per_unit &&
                           trace_options.us_per_unit <= TraceOptions::max_us_per_unit;
  if (exact_times)
    require(same_ops(read_back(trace, "a Chrome trace export does not read back"), s),
            "a Chrome trace export reads back as the same ops");
  // Action notation has one path: two-direction schedules read back as 2 x stages stages (custom.h).
  const std::string actions = format_actions(s);
  if (s.layout.directions == 1)
    require(same_ops(read_back(actions, "an actions export does not read back"), s),
            "an actions export of a single-path schedule reads back as the same ops");
}

}  // namespace

void check_run_outputs(const Run& run, const TraceOptions& trace_options) {
  check_timeline(run);
  check_metrics(run);
  (void)to_json(run, Detail::summary).dump();
  (void)render_text(run, false);
  (void)render_text(run, true);
  (void)to_csv(run);
  (void)to_svg(run);
  check_round_trips(run, trace_options);
}

}  // namespace pipesim::fuzz
