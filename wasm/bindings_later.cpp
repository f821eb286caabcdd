// The engine's calls that the page's first drawing does not need: the export formats' writers and the
// chunk model (DeepSeek-V3 Fig. 4) with its default workload. Linked into the tools module (with
// bindings_tools.cpp), which the page loads on first need (an export, the Chunk tab), and into the
// engine's Node build, so that the page's first download stays small (issue 8: wasm + JS under 250 kB
// gzipped, scripts/bundle-size.mjs) and the course module carries only the learning layer (issue 14).
#include <cstdint>
#include <string>

#include "bindings_common.h"
#include "run_request.h"
#include "pipesim/export.h"
#include "pipesim/overlap.h"
#include "pipesim/overlap_request.h"
#include "pipesim/workload.h"

namespace {

using namespace pipesim_wasm;

/// The chunk model (DeepSeek-V3 Fig. 4) for {forward, backward, ppComm} or {workload} (JSON text),
/// with optional {commSms, totalSms, saturationSms, ratio}: the CLI's `overlap --format json`.
auto overlap(val request) -> val {
  return guarded([&] {
    if (request.isUndefined() || request.isNull() || request.typeOf().as<std::string>() != "object")
      throw Error(ErrorCode::usage, "an overlap request must be an object like {ratio: '1:1', commSms: 20}", {"request.overlap_not_object", {}});
    pipesim::OverlapRequest r;
    r.forward = optional_text(request, "forward");
    r.backward = optional_text(request, "backward");
    r.pp_comm = optional_number(request, "ppComm");
    r.workload = optional_text(request, "workload");
    r.comm_sms = optional_int(request, "commSms");
    r.total_sms = optional_int(request, "totalSms");
    r.saturation_sms = optional_int(request, "saturationSms");
    r.ratio = optional_text(request, "ratio");
    r.language = optional_text(request, "language");
    return from_json(pipesim::overlap_json(pipesim::run_overlap(pipesim::make_overlap_input(r, pipesim::FieldNames::js_keys))));
  });
}

auto default_workload() -> val { return from_json(pipesim::workload_json(pipesim::deepseek_v3_workload())); }

/// Microseconds per cost unit for a trace: 0 (or undefined) is the CLI's default, anything else must
/// lie where --us-per-unit does and is refused in its words, whatever the format, so a caller's bad
/// value shows at once rather than on its first trace.
auto trace_options(const val& us_per_unit) -> pipesim::TraceOptions {
  pipesim::TraceOptions options;
  if (us_per_unit.isUndefined()) return options;
  const std::string text = js_text(us_per_unit);
  if (pipesim::parse_finite(text) == 0.0) return options;
  options.us_per_unit = pipesim::parse_number_in("us-per-unit", text, pipesim::TraceOptions::min_us_per_unit,
                                                 pipesim::TraceOptions::max_us_per_unit);
  return options;
}

/// A large export's progress for whoever created the module: the background worker gives its options
/// an `onExportProgress(written, expected)` (records of the export, see ExportProgress) and posts each
/// call to the page. It is the module's own option, never a caller's argument, so no caller's code runs
/// here (see errors.pre.js); the worker's function catches whatever it throws.
auto export_progress() -> pipesim::ExportProgress {
  val hook = val::module_property("onExportProgress");
  if (hook.typeOf().as<std::string>() != "function") return {};
  return [hook](std::uint64_t written, std::uint64_t expected) {
    hook(static_cast<double>(written), static_cast<double>(expected));
  };
}

/// The run in one of the export formats of the core's table (export_formats()). The text crosses
/// to JavaScript as one string, so it must stay within limits::max_export_bytes: a larger one is refused
/// with its size before anything of it reaches JavaScript (a string V8 cannot hold would throw inside
/// this call, through C++ frames, and leave the module broken).
auto export_text(val request, val format_arg, val us_per_unit) -> val {
  return guarded([&] {
    const pipesim::ExportFormat format = pipesim::parse_export_format(text_arg(format_arg, "export format"));
    const pipesim::TraceOptions options = trace_options(us_per_unit);
    const pipesim::Run run = pipesim::run(request_from(request));
    val out = val::object();
    out.set("text", pipesim::export_text(run, format, pipesim::limits::max_export_bytes, options, export_progress()));
    return out;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(pipesim_engine_later) {
  emscripten::function("overlap", &overlap);
  emscripten::function("exportText", &export_text);
  emscripten::function("defaultWorkload", &default_workload);
}
