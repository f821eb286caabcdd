#pragma once
// Files for other tools: a Chrome trace (Perfetto, chrome://tracing), a CSV of ops and a standalone SVG
// of the timeline, besides the JSON report and PyTorch actions. Each is written piece by piece into a
// TextSink: the CLI streams it to its output, the WebAssembly module keeps it within a budget
// (export_text) and hands it to the page as a download.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "pipesim/run.h"
#include "pipesim/text_sink.h"

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

/// The same three files written into `out` piece by piece (to_* above collect them in a string).
void write_chrome_trace(const Run& run, TextSink& out, const TraceOptions& options = {});
void write_csv(const Run& run, TextSink& out);
void write_svg(const Run& run, TextSink& out);

/// Every file a run exports, under the names the CLI's --format and the module's exportText take.
enum class ExportFormat { chrome_trace, csv, svg, actions, json };

/// One export format as every front end offers it: the CLI's --format choices and help, the module's
/// exportText and exportFormats(), the page's download buttons all read export_formats().
struct ExportFormatInfo {
  ExportFormat format;
  std::string_view name;       ///< the key of --format and exportText: "chrome-trace"
  std::string_view extension;  ///< what a saved file's name ends with, after its dot: "trace.json"
  std::string_view mime_type;  ///< "application/json"
  std::string_view label;      ///< what a button says, in English: "Chrome trace"
  /// The fewest bytes one op takes in the format (its shortest record: one-digit numbers), checked
  /// against every schedule by tests/test_export.cpp.
  std::size_t min_bytes_per_op;
  // Its writer is write_export's (core/io/src/export_write.cpp), kept out of this table so that a
  // program listing the formats links no writer.
};

/// The table of export formats, in the order the page offers them.
[[nodiscard]] auto export_formats() -> std::span<const ExportFormatInfo>;

/// The formats' names joined by `separator`, as help texts and refusals list them: "svg|csv|...".
[[nodiscard]] auto export_format_names(std::string_view separator) -> std::string;

/// A name of export_formats(); anything else is refused (unknown_name) with the known names.
[[nodiscard]] auto parse_export_format(std::string_view name) -> ExportFormat;
[[nodiscard]] auto export_format_info(ExportFormat format) -> const ExportFormatInfo&;
[[nodiscard]] auto export_format_name(ExportFormat format) -> std::string_view;

/// `run` in `format`, into `out`: json is the full report (to_json, Detail::full) and a newline.
void write_export(const Run& run, ExportFormat format, TextSink& out, const TraceOptions& options = {});

/// The fewest bytes `format` can take per op: a run whose ops times this exceed a budget is refused
/// before anything is written. tests/test_export.cpp checks it against every schedule's exports.
[[nodiscard]] auto min_export_bytes_per_op(ExportFormat format) -> std::size_t;

/// How far an export has got, told after each block the writer hands over (about 64 KiB): the records
/// (ops, trace events) written so far and how many the writer expects in all (TextSink::expect_records),
/// so that a page can show a percentage of a large download.
using ExportProgress = std::function<void(std::uint64_t written, std::uint64_t expected)>;

/// `run` in `format` as one string of at most `budget` bytes (limits::max_export_bytes in the module).
/// A larger export is refused with limit_exceeded naming its size, up front when its ops alone exceed
/// the budget (min_export_bytes_per_op), otherwise once written, with nothing over the budget ever held.
/// `progress`, when given, is told after each block (an export written in one piece, actions, is not).
[[nodiscard]] auto export_text(const Run& run, ExportFormat format, std::size_t budget, const TraceOptions& options = {},
                               const ExportProgress& progress = {}) -> std::string;

}  // namespace pipesim
