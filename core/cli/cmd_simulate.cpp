#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "pipesim/custom.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"
#include "pipesim/export.h"
#include "pipesim/measured_pipeline.h"
#include "pipesim/profile_trace.h"
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

/// --measured PATH[,PATH...]: profiler trace files, a folder standing for its *.json files by name.
auto measured_trace_paths(const std::string& list) -> std::vector<std::string> {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from <= list.size()) {
    const std::size_t comma = std::min(list.find(',', from), list.size());
    const std::string path = list.substr(from, comma - from);
    from = comma + 1;
    if (path.empty()) continue;
    std::error_code error;
    if (!std::filesystem::is_directory(path, error)) {
      out.push_back(path);
      continue;
    }
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(path, error))
      if (entry.path().extension() == ".json") files.push_back(entry.path().string());
    if (files.empty()) throw Error(ErrorCode::io, "folder '" + path + "' holds no .json profiler trace");
    std::sort(files.begin(), files.end());
    out.insert(out.end(), files.begin(), files.end());
  }
  if (out.empty()) throw Error(ErrorCode::usage, "--measured needs trace files or a folder of them");
  if (out.size() > static_cast<std::size_t>(limits::max_profile_trace_files))
    throw Error(ErrorCode::limit_exceeded, "--measured takes at most " + std::to_string(limits::max_profile_trace_files) + " traces, one per rank");
  return out;
}

/// `simulate --measured`: the run's schedule and costs come from the traces, so nothing else may set them.
auto run_measured(const Args& args) -> int {
  for (const char* name : {"schedule", "ranks", "micro-batches", "virtual-stages", "cost", "schedule-file", "us-per-unit"})
    if (args.has(name))
      throw Error(ErrorCode::usage, "--" + std::string(name) + " does not apply with --measured: the traces give the schedule and its costs");
  const std::string format = args.choice_or("format", "text", {"text", "json"});
  const OpNaming naming = args.has("op-names") ? parse_op_naming(*args.text("op-names")) : OpNaming{};
  std::vector<ProfileTrace> traces;
  for (const std::string& path : measured_trace_paths(*args.text("measured"))) {
    try {
      traces.push_back(read_profile_trace(read_file(path)));
    } catch (const Error& e) {
      if (e.code() == ErrorCode::io) throw;
      throw Error(e.code(), "'" + path + "': " + e.what());
    }
  }
  const Clock clock = args.choice_or("align", "profiler", {"profiler", "first-ops"}) == "profiler" ? Clock::profiler : Clock::first_ops;
  const MeasuredPipeline measured = measure_pipeline(traces, naming, clock);
  if (format == "json") std::cout << measured_pipeline_json(measured).dump(2) << "\n";
  else std::cout << render_measured_pipeline_text(measured);
  return 0;
}

}  // namespace

auto run_simulate(Argv argv) -> int {
  const Args args("simulate", argv,
                  {"schedule", "ranks", "micro-batches", "virtual-stages", "cost", "format", "color", "schedule-file",
                   "us-per-unit", "measured", "op-names", "align"});
  if (args.has("measured")) return run_measured(args);
  for (const char* option : {"op-names", "align"})
    if (args.has(option)) throw Error(ErrorCode::usage, "--" + std::string(option) + " applies only with --measured");
  RunRequest request;
  request.schedule = args.text_or("schedule", args.has("schedule-file") ? "custom" : "dualpipe");
  read_custom_schedule(args, request);
  request.params.ranks = args.count_or("ranks", 8, limits::max_ranks);
  request.params.micro_batches = args.count_or("micro-batches", 20, limits::max_micro_batches);
  request.params.virtual_stages = args.count_or("virtual-stages", 1, limits::max_virtual_stages);
  if (const auto cost = args.text("cost")) request.costs = parse_costs(*cost);
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
