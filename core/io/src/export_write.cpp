// The export formats' writers, and an export held in memory within a budget. Apart from the formats'
// table (export.cpp) so that a program that only lists the formats links no writer: the page's
// WebAssembly engine module names the formats for its download buttons but leaves writing them to
// the tools module (issue 14: the first download's size).
#include <cstdio>
#include <string>

#include "pipesim/custom.h"
#include "pipesim/error.h"
#include "pipesim/export.h"
#include "pipesim/report.h"

namespace pipesim {

namespace {

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

void write_export(const Run& run, ExportFormat format, TextSink& out, const TraceOptions& options) {
  // One case per value of ExportFormat: a format added to the table without its writer here is a
  // compiler warning (-Wswitch), an error with PIPESIM_WERROR.
  switch (format) {
    case ExportFormat::svg: write_svg(run, out); return;
    case ExportFormat::csv: write_csv(run, out); return;
    case ExportFormat::chrome_trace: write_chrome_trace(run, out, options); return;
    case ExportFormat::json:
      // The full report (to_json, Detail::full) and a newline.
      write_json(run, Detail::full, out);
      out.write("\n");
      return;
    case ExportFormat::actions: out.write(format_actions(run.schedule)); return;
  }
  throw Error(ErrorCode::internal, "an export format without a writer");
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
