// The README's first example, kept honest by running it.
#include <catch2/catch.hpp>

#include "pipesim/run.h"

TEST_CASE("hello schedule: DeepSeek-V3 Fig. 5 is the default request") {
  pipesim::RunRequest request;  // DualPipe, 8 ranks, 20 micro-batches, F=1 B=2 W=1 F&B=3
  const pipesim::Run run = pipesim::run(request);

  CHECK(run.metrics.makespan == 66);
  CHECK(run.metrics.per_rank[0].bubble == 6);
  CHECK(run.formula.value == 6);
  CHECK(run.metrics.peak_activations == 9);
}
