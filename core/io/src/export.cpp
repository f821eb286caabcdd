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

// Writers with one signature, so the table can hold them.
void chrome_trace_writer(const Run& run, TextSink& out, const TraceOptions& options) { write_chrome_trace(run, out, options); }
void csv_writer(const Run& run, TextSink& out, const TraceOptions&) { write_csv(run, out); }
void svg_writer(const Run& run, TextSink& out, const TraceOptions&) { write_svg(run, out); }
void actions_writer(const Run& run, TextSink& out, const TraceOptions&) { out.write(format_actions(run.schedule)); }
/// The full report (to_json, Detail::full) and a newline.
void json_writer(const Run& run, TextSink& out, const TraceOptions&) {
  write_json(run, Detail::full, out);
  out.write("\n");
}

// The one list of export formats. A new format is a writer and a line here.
constexpr std::array<ExportFormatInfo, 5> formats{{
    // one <rect> with its <title>
    {ExportFormat::svg, "svg", "svg", "image/svg+xml", "SVG", 90, svg_writer},
    // "0,0,F,0,0,0,,,,0,1,1\r\n"
    {ExportFormat::csv, "csv", "csv", "text/csv", "CSV", 20, csv_writer},
    // one complete event: name, cat, ts, dur, pid, tid, args
    {ExportFormat::chrome_trace, "chrome-trace", "trace.json", "application/json", "Chrome trace (Perfetto)", 150, chrome_trace_writer},
    // one op object, a member per line
    {ExportFormat::json, "json", "json", "application/json", "JSON", 100, json_writer},
    // "0F0,"
    {ExportFormat::actions, "actions", "txt", "text/plain", "PyTorch actions", 4, actions_writer},
}};

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
                                             name + ")",
              {"export.too_large", {{"format", name}, {"size", size}, {"budget", binary_size(double(budget))}}});
}

}  // namespace

auto export_formats() -> std::span<const ExportFormatInfo> { return formats; }

auto export_format_names(std::string_view separator) -> std::string {
  std::string names;
  for (const ExportFormatInfo& e : formats) names += (names.empty() ? "" : std::string(separator)) + std::string(e.name);
  return names;
}

auto export_format_info(ExportFormat format) -> const ExportFormatInfo& {
  for (const ExportFormatInfo& e : formats)
    if (e.format == format) return e;
  throw Error(ErrorCode::internal, "an export format without an entry");
}

auto parse_export_format(std::string_view name) -> ExportFormat {
  for (const ExportFormatInfo& e : formats)
    if (e.name == name) return e.format;
  throw Error(ErrorCode::unknown_name, "export format must be one of " + export_format_names("|") + ", got '" + std::string(name) + "'",
              {"export.unknown_format", {{"known", export_format_names("|")}, {"value", std::string(name)}}}, "format");
}

auto export_format_name(ExportFormat format) -> std::string_view { return export_format_info(format).name; }

auto min_export_bytes_per_op(ExportFormat format) -> std::size_t { return export_format_info(format).min_bytes_per_op; }

void write_export(const Run& run, ExportFormat format, TextSink& out, const TraceOptions& options) {
  export_format_info(format).write(run, out, options);
}

namespace {

/// A text within its budget whose writer's progress is told to `progress` after each block.
class ObservedText final : public TextSink {
 public:
  ObservedText(BudgetedText& text, const ExportProgress& progress) : text_(text), progress_(progress) {}
  void write(std::string_view piece) override { text_.write(piece); }
  void expect_records(std::uint64_t total) override { expected_ = total; }
  void records_written(std::uint64_t done) override {
    if (progress_) progress_(done, expected_);
  }

 private:
  BudgetedText& text_;
  const ExportProgress& progress_;
  std::uint64_t expected_ = 0;
};

}  // namespace

auto export_text(const Run& run, ExportFormat format, std::size_t budget, const TraceOptions& options,
                 const ExportProgress& progress) -> std::string {
  const double least = double(run.schedule.ops.size()) * double(min_export_bytes_per_op(format));
  if (least > double(budget)) refuse(format, "at least " + binary_size(least), budget);
  BudgetedText text(budget);
  ObservedText observed(text, progress);
  write_export(run, format, observed, options);
  if (text.over_budget()) refuse(format, binary_size(double(text.size())) + " (" + std::to_string(text.size()) + " bytes)", budget);
  return text.take();
}

}  // namespace pipesim
