// Custom schedules as users paste or import them: the JSON contract, PyTorch's action notation and
// pipesim's own Chrome traces, which all go through parse_custom_schedule. An accepted schedule is
// also simulated and every output of the run is produced and read back (run_checks.h).
#include "fuzz_support.h"
#include "pipesim/custom.h"
#include "pipesim/run.h"
#include "run_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace pipesim;
  const std::string_view text = fuzz::as_text(data, size);
  fuzz::refusing_only_with_error([&] {
    const Schedule parsed = parse_custom_schedule(text);
    fuzz::require(parsed.ranks() >= 1 && !parsed.ops.empty(), "an accepted schedule has a rank and an op");
    RunRequest request;
    request.schedule = "custom";
    request.custom_schedule = std::string(text);
    const Run run = pipesim::run(request);  // may refuse: a schedule can deadlock
    fuzz::require(run.schedule.ops == parsed.ops, "run() simulates the schedule parse_custom_schedule reads");
    fuzz::check_run_outputs(run, TraceOptions{});
  });
  return 0;
}
