#include <cstdio>
#include <iostream>

#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "pipesim/custom.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"
#include "pipesim/export.h"
#include "pipesim/report.h"
#include "pipesim/run.h"

namespace pipesim::cli {

namespace {

/// --schedule-file PATH ('-' = standard input) gives the text of a schedule such as `custom`, whose
/// ranks and micro-batches come from that text.
void read_custom_schedule(const Args& args, RunRequest& request) {
  const bool takes_text = find_schedule(request.schedule).parse != nullptr;
  const auto path = args.text("schedule-file");
  if (!takes_text) {
    if (path) throw Error(ErrorCode::usage, "--schedule-file applies only to --schedule custom");
    return;
  }
  for (const char* option : {"ranks", "micro-batches", "virtual-stages"})
    if (args.has(option))
      throw Error(ErrorCode::usage, "--" + std::string(option) + " comes from the schedule file with --schedule " + request.schedule);
  if (!path) return;  // run() explains that the schedule text is missing
  request.custom_schedule = *path == "-" ? read_stdin() : read_file(*path);
}

}  // namespace

auto run_simulate(Argv argv) -> int {
  const Args args("simulate", argv,
                  {"schedule", "ranks", "micro-batches", "virtual-stages", "cost", "format", "color", "schedule-file",
                   "us-per-unit", "timing", "sends"});
  RunRequest request;
  request.schedule = args.text_or("schedule", args.has("schedule-file") ? "custom" : "dualpipe");
  read_custom_schedule(args, request);
  request.params.ranks = args.count_or("ranks", 8, limits::max_ranks);
  request.params.micro_batches = args.count_or("micro-batches", 20, limits::max_micro_batches);
  request.params.virtual_stages = args.count_or("virtual-stages", 1, limits::max_virtual_stages);
  if (const auto cost = args.text("cost")) request.costs = parse_costs(*cost);
  request.timing = parse_timing(args.choice_or("timing", "dataflow", {"dataflow", "reference"}), "--timing");
  if (args.has("sends") && request.timing != Timing::reference)
    throw Error(ErrorCode::usage, "--sends applies only to --timing reference");
  request.sends = parse_send_mode(args.choice_or("sends", "rendezvous", {"rendezvous", "eager", "async"}), "--sends");
  const std::string format =
      args.choice_or("format", "text", {"text", "json", "summary", "actions", "chrome-trace", "csv", "svg"});
  if (args.has("us-per-unit") && format != "chrome-trace") throw Error(ErrorCode::usage, "--us-per-unit applies only to --format chrome-trace");
  const TraceOptions trace{args.number_or("us-per-unit", TraceOptions{}.us_per_unit, TraceOptions::min_us_per_unit,
                                          TraceOptions::max_us_per_unit)};
  const std::string color = args.choice_or("color", "auto", {"auto", "always", "never"});

  const Run run = pipesim::run(request);
  if (format == "text") {
    const bool tty = isatty(fileno(stdout)) != 0;
    std::cout << render_text(run, color == "always" || (color == "auto" && tty));
  } else if (format == "actions") {
    std::cout << format_actions(run.schedule);
  } else if (format == "chrome-trace") {
    std::cout << to_chrome_trace(run, trace);
  } else if (format == "csv") {
    std::cout << to_csv(run);
  } else if (format == "svg") {
    std::cout << to_svg(run);
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
