// run() with arbitrary configurations, then every measurement and export of the run (run_checks.h).
// The input is the CLI's `simulate` options in a line, then an optional custom schedule:
//   line 1  SCHEDULE RANKS MICRO_BATCHES VIRTUAL_STAGES COSTS US_PER_UNIT
//   rest    the schedule text, for SCHEDULE "custom"
// e.g. "zb-v 4 8 1 F=1,B=3,W=1 1000". A missing word, or "-", keeps the CLI's default; numbers are read
// leniently (saturated at the int range) so that refusing out-of-range values is left to the library.
#include <cmath>
#include <cstdlib>
#include <string>

#include "fuzz_support.h"
#include "pipesim/costs.h"
#include "pipesim/limits.h"
#include "pipesim/run.h"
#include "run_checks.h"

namespace {

using namespace pipesim;

// Requests within the library's limits run in time proportional to their chunks. Up to this many they
// run in milliseconds; larger ones within the limits are skipped, so each input stays fast. Requests
// over a limit are kept: the library must refuse them up front, which is cheap and worth fuzzing.
constexpr long long max_fuzzed_chunks = 256;

struct Config {
  RunRequest request;
  TraceOptions trace;
};

auto given(std::string_view word) -> bool { return !word.empty() && word != "-"; }

void read_size(std::string_view word, int& size) {
  if (const auto v = fuzz::saturated_int(word); given(word) && v) size = *v;
}

auto decode(std::string_view text) -> Config {
  Config c;
  std::string_view line = fuzz::take_line(text);
  if (const std::string_view name = fuzz::take_word(line); given(name)) c.request.schedule = std::string(name);
  read_size(fuzz::take_word(line), c.request.params.ranks);
  read_size(fuzz::take_word(line), c.request.params.micro_batches);
  read_size(fuzz::take_word(line), c.request.params.virtual_stages);
  if (const std::string_view costs = fuzz::take_word(line); given(costs)) c.request.costs = parse_costs(costs);
  if (const std::string_view us = fuzz::take_word(line); given(us))
    c.trace.us_per_unit = std::strtod(std::string(us).c_str(), nullptr);
  c.request.custom_schedule = std::string(text);
  return c;
}

auto within_limits(const ScheduleParams& p) -> bool {
  return p.ranks >= 1 && p.ranks <= limits::max_ranks && p.micro_batches >= 1 &&
         p.micro_batches <= limits::max_micro_batches && p.virtual_stages >= 1 &&
         p.virtual_stages <= limits::max_virtual_stages;
}

/// Within the limits but too large to fuzz quickly (custom schedules are bounded by the input size).
auto too_slow_to_fuzz(const RunRequest& r) -> bool {
  const ScheduleParams& p = r.params;
  if (r.schedule == "custom" || !within_limits(p)) return false;
  const long long chunks = static_cast<long long>(p.ranks) * p.micro_batches * p.virtual_stages;
  return chunks > max_fuzzed_chunks && 2 * chunks <= limits::max_ops;  // could be accepted: slow
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::refusing_only_with_error([&] {
    const Config c = decode(fuzz::as_text(data, size));
    if (too_slow_to_fuzz(c.request)) return;
    const Run run = pipesim::run(c.request);
    fuzz::require(run.spec != nullptr && run.spec->name == c.request.schedule, "run() runs the schedule asked for");
    if (c.request.schedule != "custom")
      fuzz::require(run.schedule.params.ranks == c.request.params.ranks, "run() runs the ranks asked for");
    fuzz::check_run_outputs(run, c.trace);
  });
  return 0;
}
