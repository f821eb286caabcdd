// The export formats by name, and an export held in memory within a budget.
#include <array>
#include <cstdio>
#include <string>

#include "pipesim/custom.h"
#include "pipesim/error.h"
#include "pipesim/export.h"
#include "pipesim/report.h"

namespace pipesim {

namespace {

struct FormatEntry {
  ExportFormat format;
  std::string_view name;
  /// The fewest bytes one op takes in the format (its shortest record: one-digit numbers), checked
  /// against every schedule by tests/test_export.cpp.
  std::size_t min_bytes_per_op;
};

constexpr std::array<FormatEntry, 5> formats{{
    {ExportFormat::chrome_trace, "chrome-trace", 150},  // one complete event: name, cat, ts, dur, pid, tid, args
    {ExportFormat::csv, "csv", 20},                      // "0,0,F,0,0,0,,,,0,1,1\r\n"
    {ExportFormat::svg, "svg", 90},                      // one <rect> with its <title>
    {ExportFormat::actions, "actions", 4},               // "0F0,"
    {ExportFormat::json, "json", 100},                   // one op object, a member per line
}};

auto entry(ExportFormat format) -> const FormatEntry& {
  for (const FormatEntry& e : formats)
    if (e.format == format) return e;
  throw Error(ErrorCode::internal, "an export format without an entry");
}

/// Bytes as a person reads them: "1.50 GiB", "300.2 MiB", "2.1 KiB", "700 bytes".
auto binary_size(double bytes) -> std::string {
  char text[48];
  if (bytes >= double(1 << 30)) std::snprintf(text, sizeof text, "%.2f GiB", bytes / double(1 << 30));
  else if (bytes >= double(1 << 20)) std::snprintf(text, sizeof text, "%.1f MiB", bytes / double(1 << 20));
  else if (bytes >= 1024) std::snprintf(text, sizeof text, "%.1f KiB", bytes / 1024);
  else std::snprintf(text, sizeof text, "%.0f bytes", bytes);
  return text;
}

[[noreturn]] void refuse(ExportFormat format, const std::string& size, std::size_t budget) {
  const std::string name(export_format_name(format));
  throw Error(ErrorCode::limit_exceeded, "the " + name + " export of this run would take " + size + ", over the " +
                                             binary_size(double(budget)) + " one export may take in memory here; export "
                                             "a smaller run, or use the CLI, which streams it (pipesim simulate --format " +
                                             name + ")");
}

}  // namespace

auto parse_export_format(std::string_view name) -> ExportFormat {
  std::string names;
  for (const FormatEntry& e : formats) {
    if (e.name == name) return e.format;
    names += (names.empty() ? "" : "|") + std::string(e.name);
  }
  throw Error(ErrorCode::unknown_name, "export format must be one of " + names + ", got '" + std::string(name) + "'");
}

auto export_format_name(ExportFormat format) -> std::string_view { return entry(format).name; }

auto min_export_bytes_per_op(ExportFormat format) -> std::size_t { return entry(format).min_bytes_per_op; }

void write_export(const Run& run, ExportFormat format, TextSink& out, const TraceOptions& options) {
  switch (format) {
    case ExportFormat::chrome_trace: write_chrome_trace(run, out, options); return;
    case ExportFormat::csv: write_csv(run, out); return;
    case ExportFormat::svg: write_svg(run, out); return;
    case ExportFormat::actions: out.write(format_actions(run.schedule)); return;
    case ExportFormat::json:
      write_json(run, Detail::full, out);
      out.write("\n");
      return;
  }
}

auto export_text(const Run& run, ExportFormat format, std::size_t budget, const TraceOptions& options) -> std::string {
  const double least = double(run.schedule.ops.size()) * double(min_export_bytes_per_op(format));
  if (least > double(budget)) refuse(format, "at least " + binary_size(least), budget);
  BudgetedText text(budget);
  write_export(run, format, text, options);
  if (text.over_budget()) refuse(format, binary_size(double(text.size())) + " (" + std::to_string(text.size()) + " bytes)", budget);
  return text.take();
}

}  // namespace pipesim
