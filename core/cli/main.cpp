// pipesim: compute, simulate and measure pipeline-parallel training schedules.
#include <exception>
#include <iostream>
#include <string_view>
#include <vector>

#include "commands.h"
#include "pipesim/error.h"

namespace {

constexpr std::string_view usage = R"(pipesim: pipeline-parallel schedules (DualPipe, DualPipeV, 1F1B, GPipe, Zero Bubble), simulated and measured

usage:
  pipesim simulate [--schedule NAME] [--ranks N] [--micro-batches M] [--virtual-stages V]
                   [--cost F=1,B=2,W=1,FB=3,comm=0] [--format text|json|summary] [--color auto|always|never]
      Without options: DualPipe with 8 ranks and 20 micro-batches (DeepSeek-V3 Fig. 5).
      B is the full backward; an input-only backward costs B-W; FB is an overlapped forward+backward
      pair and defaults to F+B when --cost omits it.
  pipesim list [--format text|json]
      The schedules, their rules and sources.
  pipesim help
      This text.

Bad input prints one line starting with "pipesim: error:" and exits with status 2.
)";

struct Command {
  std::string_view name;
  int (*run)(pipesim::cli::Argv);
};

const Command commands[] = {
    {"simulate", pipesim::cli::run_simulate},
    {"list", pipesim::cli::run_list},
};

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
    std::cout << usage;
    return args.empty() ? 2 : 0;
  }
  try {
    for (const Command& c : commands)
      if (c.name == args[0]) return c.run(pipesim::cli::Argv(args).subspan(1));
    std::string known;
    for (const Command& c : commands) known += (known.empty() ? "" : ", ") + std::string(c.name);
    throw pipesim::Error("unknown command '" + std::string(args[0]) + "'; commands are " + known + ", help");
  } catch (const pipesim::Error& e) {
    std::cerr << "pipesim: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "pipesim: error: " << e.what() << "\n";
    return 2;
  }
}
