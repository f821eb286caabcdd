// The planner's JSON input (core/data/plan_examples/): parsed, and when the pipeline is small enough
// to simulate every schedule in milliseconds, planned, written as JSON and as text.
#include "fuzz_support.h"
#include "pipesim/course_data.h"
#include "pipesim/planner.h"

namespace {

// The planner runs every schedule of the catalogue; beyond this many chunks one input would take
// seconds, so larger plans are only parsed. Their limits are the registry's, fuzzed by fuzz_run.
constexpr long long max_planned_chunks = 2048;

auto small_enough_to_plan(const pipesim::PlanInput& in) -> bool {
  return static_cast<long long>(in.model.pp) * in.model.micro_batches * in.assumptions.virtual_stages <= max_planned_chunks;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pipesim;
  fuzz::refusing_only_with_error([&] {
    const PlanInput input = parse_plan_input(fuzz::as_text(data, size));
    if (!small_enough_to_plan(input)) return;
    static const CourseData course = embedded_course_data();  // parsed once for the whole run
    const Plan p = plan(course, input);
    fuzz::require(p.ranked.empty() || !p.recommended.empty(), "a plan with candidates recommends one");
    (void)plan_json(course, p).dump();
    (void)render_plan_text(course, p);
  });
  return 0;
}
