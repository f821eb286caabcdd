#pragma once
// The outputs of one simulated run, each produced and checked against what the headers promise:
// measurements in range, and every export that pipesim can read back reading back as the same ops.
#include "pipesim/export.h"
#include "pipesim/run.h"

namespace pipesim::fuzz {

/// Reports and exports `run` (JSON, text, Chrome trace, CSV, SVG, actions) and checks its measurements
/// and the round trips. An export that does not read back is a finding; an exporter may still refuse
/// with Error (to_chrome_trace refuses a us_per_unit that is not a finite number > 0).
void check_run_outputs(const Run& run, const TraceOptions& trace_options);

}  // namespace pipesim::fuzz
