#include <cstdio>
#include <iostream>

#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "pipesim/report.h"
#include "pipesim/run.h"

namespace pipesim::cli {

auto run_simulate(Argv argv) -> int {
  const Args args("simulate", argv,
                  {"schedule", "ranks", "micro-batches", "virtual-stages", "cost", "format", "color"});
  RunRequest request;
  request.schedule = args.text_or("schedule", "dualpipe");
  request.params.ranks = args.integer_or("ranks", 8, 1, 1'000'000);
  request.params.micro_batches = args.integer_or("micro-batches", 20, 1, 1'000'000);
  request.params.virtual_stages = args.integer_or("virtual-stages", 1, 1, 1'000'000);
  if (const auto cost = args.text("cost")) request.costs = parse_costs(*cost);
  const std::string format = args.choice_or("format", "text", {"text", "json", "summary"});
  const std::string color = args.choice_or("color", "auto", {"auto", "always", "never"});

  const Run run = pipesim::run(request);
  if (format == "text") {
    const bool tty = isatty(fileno(stdout)) != 0;
    std::cout << render_text(run, color == "always" || (color == "auto" && tty));
  } else {
    std::cout << to_json(run, format == "json" ? Detail::full : Detail::summary).dump(2) << "\n";
  }
  return 0;
}

auto run_list(Argv argv) -> int {
  const Args args("list", argv, {"format"});
  const std::string format = args.choice_or("format", "text", {"text", "json"});
  if (format == "json") std::cout << schedules_json().dump(2) << "\n";
  else std::cout << render_schedule_list();
  return 0;
}

}  // namespace pipesim::cli
