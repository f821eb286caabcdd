// The tools module's own calls (pipesim_tools, with bindings_later.cpp's exports and chunk model): the
// profiler trace readers, one F&B pair measured next to the chunk model and one trace per rank
// measured next to the model. The page needs them only when a user loads a profile; they pull in
// the bounded trace reader and std::regex (the measured pipeline's op-name patterns, with the locale
// code regex brings), which the learning layer (bindings_course.cpp) never needs, so they are not in
// the course module either.
#include <cstddef>
#include <string>

#include "bindings_common.h"
#include "pipesim/frontend/measured.h"
#include "pipesim/measured_chunk.h"
#include "pipesim/measured_pipeline.h"

namespace {

using namespace pipesim_wasm;

/// A PyTorch profiler trace of one F&B pair (its JSON text) measured next to the chunk model: the CLI's
/// `overlap --trace FILE --format json`. `language` words the derivation, as overlap's request.language does.
auto overlap_trace(val text, val language) -> val {
  return guarded([&] {
    const std::string words = language.isUndefined() ? "en" : text_arg(language, "language");
    return from_json(pipesim::measured_overlap_json(pipesim::run_measured_overlap(text_arg(text, "profiler trace"), words)));
  });
}

/// One profiler trace per rank (their JSON texts) measured next to the model with fitted costs: the
/// CLI's `simulate --measured FILES --align ALIGN --format json` ("profiler" or "first-ops").
auto measured_pipeline(val texts, val align) -> val {
  return guarded([&] {
    if (texts.isUndefined() || texts.isNull() || !texts.isArray())
      throw pipesim::Error(pipesim::ErrorCode::usage, "a measured pipeline needs an array of profiler traces, one per rank",
                           {"measured.not_array", {}});
    const auto traces = pipesim::frontend::read_traces(
        texts["length"].as<std::size_t>(), [&](std::size_t i) { return text_arg(texts[i], "profiler trace"); },
        [](std::size_t i) { return "trace " + std::to_string(i + 1) + ": "; }, "a measured pipeline");
    const auto clock = pipesim::frontend::parse_clock(align.isUndefined() ? "profiler" : text_arg(align, "align"), "align");
    const auto m = pipesim::measure_pipeline(traces, {}, clock);
    return from_json(pipesim::measured_pipeline_json(m));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(pipesim_tools) {
  emscripten::function("overlapTrace", &overlap_trace);
  emscripten::function("measuredPipeline", &measured_pipeline);
  emscripten::function("version", &version);
}
