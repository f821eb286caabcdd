#pragma once
// Files for other tools: a Chrome trace (Perfetto, chrome://tracing), a CSV of ops and a standalone SVG
// of the timeline. Each takes a simulated Run and returns the whole file as text, so the CLI writes it
// to standard output and the WebAssembly module hands it to the page as a download.
#include <string>

#include "pipesim/run.h"

namespace pipesim {

struct TraceOptions {
  /// Microseconds per cost unit. The trace format counts time in microseconds while pipesim's costs
  /// are abstract; 1000 makes one unit one millisecond, which is how the trace viewers label it
  /// (displayTimeUnit "ms"), so a trace of F=1 reads as F = 1 ms.
  double us_per_unit = 1000;
  /// The range the CLI's --us-per-unit and the WebAssembly exportText accept: beyond it a trace's
  /// timestamps either round to nothing or stop being exact integers in a double.
  static constexpr double min_us_per_unit = 0.001;
  static constexpr double max_us_per_unit = 1e9;
};

/// The Chrome trace event JSON object of a run: one process per rank (pid = rank, "rank r"), each with
/// a "compute" thread holding every op as a complete event ("X") and "comm" threads holding, for every
/// input that crosses ranks, a send slice on the sender and a recv slice on the receiver, both over
/// [producer end, producer end + comm], linked by a flow arrow ("s" on the send, "f" with "bp":"e" on
/// the recv). Transfers that overlap in time go on extra lanes ("comm 2", ...) because the format
/// requires the slices of one thread to nest. `otherData` carries the schedule's shape (generator
/// "pipesim"), which parse_custom_schedule uses to read the trace back. Throws Error if
/// `options.us_per_unit` is not a finite number > 0.
[[nodiscard]] auto to_chrome_trace(const Run& run, const TraceOptions& options = {}) -> std::string;

/// One CSV row per op, ranks in order and each rank's ops in run order, under the header
/// `rank,index,op,mb,phase,stage,b_mb,b_phase,b_stage,start,end,duration`. An FB gives its forward
/// half in mb/phase/stage and its backward half in the b_ columns, which stay empty for other ops.
/// Times are in cost units. RFC 4180: CRLF line ends, fields quoted when they need it.
[[nodiscard]] auto to_csv(const Run& run) -> std::string;

/// A standalone SVG of the timeline drawn like the page: one row per rank, time to the right, an axis,
/// DeepSeek's colours (light shades for direction 1, the way back of a V or an odd virtual chunk), an
/// FB as one bordered cell split F:B in proportion F/(F+B), a title line and a legend. Presentation
/// attributes only (no CSS, no script), so it renders under a strict CSP and in slide software.
[[nodiscard]] auto to_svg(const Run& run) -> std::string;

}  // namespace pipesim
