// The export formats by name (the writers and an export held in memory within a budget: export_write.cpp).
#include <array>
#include <string>

#include "pipesim/error.h"
#include "pipesim/export.h"
#include "pipesim/parse.h"

namespace pipesim {

namespace {

// The one list of export formats. A new format is a line here and its writer's case in
// export_write.cpp, which holds the writers apart so that a program listing the formats (the page's
// engine module, issue 14) links none of them.
constexpr std::array<ExportFormatInfo, 5> formats{{
    // one <rect> with its <title>
    {ExportFormat::svg, "svg", "svg", "image/svg+xml", "SVG", 90},
    // "0,0,F,0,0,0,,,,0,1,1\r\n"
    {ExportFormat::csv, "csv", "csv", "text/csv", "CSV", 20},
    // one complete event: name, cat, ts, dur, pid, tid, args
    {ExportFormat::chrome_trace, "chrome-trace", "trace.json", "application/json", "Chrome trace (Perfetto)", 150},
    // one op object, a member per line
    {ExportFormat::json, "json", "json", "application/json", "JSON", 100},
    // "0F0,"
    {ExportFormat::actions, "actions", "txt", "text/plain", "PyTorch actions", 4},
}};

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
  throw Error(ErrorCode::unknown_name, "export format must be one of " + export_format_names("|") + ", got '" + quoted_input(name) + "'",
              {"export.unknown_format", {{"known", export_format_names("|")}, {"value", quoted_input(name)}}}, "format");
}

auto export_format_name(ExportFormat format) -> std::string_view { return export_format_info(format).name; }

auto min_export_bytes_per_op(ExportFormat format) -> std::size_t { return export_format_info(format).min_bytes_per_op; }

}  // namespace pipesim
