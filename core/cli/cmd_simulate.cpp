#include <cstdio>
#include <optional>
#include <iostream>

#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "pipesim/custom.h"
#include "pipesim/error.h"
#include "pipesim/limits.h"
#include "pipesim/model_stages.h"
#include "pipesim/planner.h"
#include "pipesim/registry.h"
#include "pipesim/export.h"
#include "pipesim/report.h"
#include "pipesim/run.h"
#include "pipesim/stage_costs.h"

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

/// --cost or --model-cost (one micro-batch through the whole model, divided over each schedule's
/// stages), --model-stages N (--cost is one of N stages of the model, which each schedule re-cuts), then --stage-costs FILE, --stage-cost STAGE:KEY=V,... and --rank-speed RANK:FACTOR.
void read_costs(const Args& args, RunRequest& request) {
  if (args.has("cost") && args.has("model-cost"))
    throw Error(ErrorCode::usage, "--cost and --model-cost cannot both be given: one is a stage's cost, the other the whole model's");
  if (const auto cost = args.text("cost")) request.costs = parse_costs(*cost);
  if (const auto model = args.text("model-cost")) {
    request.costs = parse_costs(*model);
    request.per_stage.model_stages = 1;
  }
  if (args.has("model-stages")) {
    if (args.has("model-cost"))
      throw Error(ErrorCode::usage, "--model-stages applies to --cost: --model-cost is already the whole model's cost");
    request.per_stage.model_stages = args.integer_or("model-stages", 0, 1, 2 * limits::max_ranks * limits::max_virtual_stages);
  }
  if (const auto path = args.text("stage-costs"))
    request.per_stage.table = parse_stage_cost_table(*path == "-" ? read_stdin() : read_file(*path));
  for (const std::string& text : args.texts("stage-cost")) request.per_stage.overrides.push_back(parse_stage_cost(text));
  for (const std::string& text : args.texts("rank-speed")) request.per_stage.rank_speeds.push_back(parse_rank_speed(text));
}

/// --model FILE: the planner's model and cluster, divided into the stages of the chosen schedule
/// (--layers-per-stage, else balanced) and priced with the planner's cost model, in milliseconds. The
/// pipeline size is the file's model.pp; --micro-batches defaults to its model.micro_batches.
auto read_model(const Args& args, RunRequest& request) -> std::optional<ModelDivision> {
  const auto path = args.text("model");
  if (!path) {
    if (args.has("layers-per-stage")) throw Error(ErrorCode::usage, "--layers-per-stage applies only with --model FILE");
    return std::nullopt;
  }
  for (const char* option : {"cost", "model-cost", "model-stages", "stage-costs"})
    if (args.has(option))
      throw Error(ErrorCode::usage, "--" + std::string(option) + " cannot be given with --model: the model file gives every stage's costs");
  const PlanInput input = parse_plan_input(*path == "-" ? read_stdin() : read_file(*path));
  if (args.has("ranks") && request.params.ranks != input.model.pp)
    throw Error(ErrorCode::usage, "--ranks " + std::to_string(request.params.ranks) + " differs from the model file's model.pp (" +
                std::to_string(input.model.pp) + "): with --model the pipeline size is the file's");
  if (!args.has("micro-batches")) request.params.micro_batches = input.model.micro_batches;
  const std::vector<int> layers =
      args.has("layers-per-stage") ? parse_layers_per_stage(*args.text("layers-per-stage")) : std::vector<int>{};
  return model_request(input, request, layers);
}

}  // namespace

auto run_simulate(Argv argv) -> int {
  const Args args("simulate", argv,
                  {"schedule", "ranks", "micro-batches", "virtual-stages", "cost", "format", "color", "schedule-file",
                   "us-per-unit", "model-cost", "model-stages", "stage-cost", "stage-costs", "rank-speed", "model", "layers-per-stage"},
                  {}, {"stage-cost", "rank-speed"});
  RunRequest request;
  request.schedule = args.text_or("schedule", args.has("schedule-file") ? "custom" : "dualpipe");
  read_custom_schedule(args, request);
  request.params.ranks = args.count_or("ranks", 8, limits::max_ranks);
  request.params.micro_batches = args.count_or("micro-batches", 20, limits::max_micro_batches);
  request.params.virtual_stages = args.count_or("virtual-stages", 1, limits::max_virtual_stages);
  const std::optional<ModelDivision> model = read_model(args, request);
  read_costs(args, request);
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
    const Detail detail = format == "json" ? Detail::full : Detail::summary;
    std::cout << (model ? model_run_json(*model, run, detail) : to_json(run, detail)).dump(2) << "\n";
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
