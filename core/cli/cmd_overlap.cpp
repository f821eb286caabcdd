// `pipesim overlap`: the compute/communication overlap inside one DualPipe F&B pair, and optionally
// the pipeline simulated with the costs it derives.
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "args.h"
#include "commands.h"
#include "output.h"
#include "pipesim/error.h"
#include "pipesim/language.h"
#include "pipesim/limits.h"
#include "pipesim/measured_chunk.h"
#include "pipesim/overlap.h"
#include "pipesim/overlap_request.h"
#include "pipesim/report.h"
#include "pipesim/run.h"

namespace pipesim::cli {

namespace {

constexpr double max_duration = 1e9;

auto request_from(const Args& args) -> OverlapRequest {
  OverlapRequest r;
  r.forward = args.text("forward");
  r.backward = args.text("backward");
  if (args.has("pp-comm")) r.pp_comm = args.number_or("pp-comm", 0, 0, max_duration);
  // With direct durations the workload is a conflict: report that before touching the file.
  const bool direct = r.forward || r.backward || r.pp_comm;
  if (const auto path = args.text("workload"))
    r.workload = direct ? std::string() : read_input("workload", *path, limits::max_small_json_bytes);
  if (args.has("comm-sms")) r.comm_sms = args.integer_or("comm-sms", 20, 1, 1'000'000);
  if (args.has("total-sms")) r.total_sms = args.integer_or("total-sms", 132, 2, 1'000'000);
  if (args.has("saturation-sms")) r.saturation_sms = args.integer_or("saturation-sms", 20, 1, 1'000'000);
  r.ratio = args.text("ratio");
  r.language = args.text("lang");
  return r;
}

/// --trace FILE: the durations are measured, so nothing may also give or rescale them.
auto measured_from(const Args& args) -> std::optional<MeasuredOverlap> {
  const auto path = args.text("trace");
  if (!path) return std::nullopt;
  for (const char* name : {"forward", "backward", "pp-comm", "workload", "comm-sms", "total-sms", "saturation-sms", "ratio"})
    if (args.has(name))
      throw Error(ErrorCode::usage, "--" + std::string(name) + " does not apply with --trace: the trace gives the durations as measured, "
                                    "on the SMs the run gave to communication");
  return run_measured_overlap(read_input("trace", *path, limits::max_profile_trace_bytes), args.text_or("lang", "en"));
}

auto simulation_from(const Args& args, const Overlap& o, const std::optional<MeasuredOverlap>& measured) -> std::optional<Run> {
  if (!args.has("simulate")) {
    for (const char* name : {"ranks", "micro-batches", "virtual-stages"})
      if (args.has(name)) throw Error(ErrorCode::usage, "--" + std::string(name) + " applies only with --simulate SCHEDULE");
    return std::nullopt;
  }
  RunRequest request;
  request.schedule = *args.text("simulate");
  request.params.ranks = args.count_or("ranks", 8, limits::max_ranks);
  request.params.micro_batches = args.count_or("micro-batches", 20, limits::max_micro_batches);
  request.params.virtual_stages = args.count_or("virtual-stages", 1, limits::max_virtual_stages);
  request.costs = measured ? measured_costs(measured->measured, o) : overlap_costs(o);
  return pipesim::run(request);
}

}  // namespace

auto run_overlap(Argv argv) -> int {
  const Args args("overlap", argv,
                  {"forward", "backward", "pp-comm", "workload", "comm-sms", "total-sms", "saturation-sms", "ratio",
                   "simulate", "ranks", "micro-batches", "virtual-stages", "format", "color", "trace", "lang"});
  // An unknown language is refused before any file is read, whichever input the durations come from.
  if (const auto lang = args.text("lang")) {
    try {
      (void)known_language(*lang);
    } catch (const Error& e) {
      throw e.about("language");
    }
  }
  const std::optional<MeasuredOverlap> measured = measured_from(args);
  const std::string format = args.choice_or("format", "text", {"text", "json"});
  const bool colour = colour_wanted(args);

  const Overlap overlap = measured ? measured->model : pipesim::run_overlap(make_overlap_input(request_from(args)));
  const std::optional<Run> simulation = simulation_from(args, overlap, measured);
  if (format == "json") {
    nlohmann::json out = measured ? measured_overlap_json(*measured) : overlap_json(overlap);
    if (simulation) out["simulation"] = to_json(*simulation, Detail::summary);
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  std::cout << render_overlap_text(overlap);
  if (measured) std::cout << render_measured_chunk_text(measured->measured, overlap);
  if (simulation) {
    std::cout << "\n" << render_text(*simulation, colour);
  }
  return 0;
}

}  // namespace pipesim::cli
