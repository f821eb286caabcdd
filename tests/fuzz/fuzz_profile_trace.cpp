// PyTorch profiler traces as users load them: the streaming reader, one F&B pair measured and run
// through the chunk model (overlap --trace), and a pipeline of one to three ranks cut from the input
// (simulate --measured). Measures must stay finite and within their bounds.
#include <cmath>
#include <vector>

#include "fuzz_support.h"
#include "pipesim/measured_chunk.h"
#include "pipesim/measured_pipeline.h"
#include "pipesim/profile_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pipesim;
  const std::string_view text = fuzz::as_text(data, size);
  fuzz::refusing_only_with_error([&] {
    const MeasuredOverlap m = run_measured_overlap(text);
    const MeasuredChunk& c = m.measured;
    fuzz::require(std::isfinite(c.span_us) && c.span_us >= 0, "a measured span is finite and >= 0");
    fuzz::require(c.hidden_comm_us <= c.communication_busy_us + 1e-9 * (1 + c.communication_busy_us), "hidden <= communication busy");
    fuzz::require(c.compute_busy_us <= c.span_us + 1e-9 * (1 + c.span_us), "compute busy <= span");
    (void)measured_overlap_json(m).dump();
  });
  fuzz::refusing_only_with_error([&] {
    // Ranks separated by form feeds, so one input can be a whole pipeline.
    std::vector<ProfileTrace> traces;
    std::size_t from = 0;
    while (from <= text.size() && traces.size() < 3) {
      const std::size_t end = std::min(text.find('\f', from), text.size());
      traces.push_back(read_profile_trace(text.substr(from, end - from)));
      from = end + 1;
    }
    const MeasuredPipeline p = measure_pipeline(traces);
    fuzz::require(std::isfinite(p.makespan_us) && p.makespan_us >= 0, "a measured makespan is finite and >= 0");
    (void)measured_pipeline_json(p).dump();
  });
  return 0;
}
