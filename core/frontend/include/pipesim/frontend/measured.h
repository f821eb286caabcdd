#pragma once
// A measured pipeline's inputs as the pipesim command and the WebAssembly module both take them (the
// CLI's `simulate --measured FILES --align ALIGN`, the course module's measuredPipeline(texts, align)):
// the words for the clock and the reading of one trace per rank, refused in the same words by both.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "pipesim/measured_pipeline.h"
#include "pipesim/profile_trace.h"

namespace pipesim::frontend {

/// "profiler" (the traces share one clock) or "first-ops" (each rank's first op placed where the
/// model starts it). Anything else is refused (unknown_name) as `field` must be one of profiler|first-ops.
[[nodiscard]] auto parse_clock(std::string_view text, std::string_view field) -> Clock;

/// Reads `count` profiler traces, trace i from text_of(i); a refusal of trace i is prefixed with
/// label_of(i) ("'rank0.json': ", "trace 1: ") and keeps its code, except a file that could not be read
/// (ErrorCode::io), whose message already names it. Refuses more than limits::max_profile_trace_files,
/// `what` naming the input ("--measured", "a measured pipeline").
[[nodiscard]] auto read_traces(std::size_t count, const std::function<std::string(std::size_t)>& text_of,
                               const std::function<std::string(std::size_t)>& label_of, std::string_view what)
    -> std::vector<ProfileTrace>;

}  // namespace pipesim::frontend
