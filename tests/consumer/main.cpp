// Prints DeepSeek-V3 Fig. 5's makespan (DualPipe, 8 ranks, 20 micro-batches, unit costs) and the
// library's version, through nothing but the installed headers and pipesim::core.
#include <iostream>

#include "pipesim/run.h"
#include "pipesim/version.h"

auto main() -> int {
  pipesim::RunRequest request;
  request.schedule = "dualpipe";
  request.params.ranks = 8;
  request.params.micro_batches = 20;
  const pipesim::Run run = pipesim::run(request);
  std::cout << "pipesim " << pipesim::version() << " makespan " << run.metrics.makespan << "\n";
  return 0;
}
