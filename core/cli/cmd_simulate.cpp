#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <iostream>

#include <unistd.h>

#include "args.h"
#include "commands.h"
#include "output.h"
#include "pipesim/error.h"
#include "pipesim/frontend/measured.h"
#include "pipesim/limits.h"
#include "pipesim/model_stages.h"
#include "pipesim/planner.h"
#include "pipesim/registry.h"
#include "pipesim/export.h"
#include "pipesim/measured_pipeline.h"
#include "pipesim/profile_trace.h"
#include "pipesim/report.h"
#include "pipesim/run.h"
#include "pipesim/stage_costs.h"

namespace pipesim::cli {

namespace {

/// --schedule-file PATH ('-' = standard input) gives the text of a schedule such as `custom`, whose
/// ranks and micro-batches come from that text.
void read_custom_schedule(const Args& args, RunRequest& request) {
  const bool takes_text = find_schedule(request.schedule).given_as_text;
  const auto path = args.text("schedule-file");
  if (!takes_text) {
    if (path) throw Error(ErrorCode::usage, "--schedule-file applies only to --schedule custom");
    return;
  }
  for (const char* option : {"ranks", "micro-batches", "virtual-stages"})
    if (args.has(option))
      throw Error(ErrorCode::usage, "--" + std::string(option) + " comes from the schedule file with --schedule " + request.schedule);
  if (!path) return;  // run() explains that the schedule text is missing
  request.custom_schedule = read_input("schedule-file", *path, limits::max_schedule_text_bytes);
}

/// An export's pieces written to a stream as they come.
class OstreamSink final : public TextSink {
 public:
  explicit OstreamSink(std::ostream& out) : out_(out) {}
  void write(std::string_view text) override { out_.write(text.data(), static_cast<std::streamsize>(text.size())); }

 private:
  std::ostream& out_;
};

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
    request.per_stage.table = parse_stage_cost_table(read_input("stage-costs", *path, limits::max_small_json_bytes));
  for (const std::string& text : args.texts("stage-cost")) request.per_stage.overrides.push_back(parse_stage_cost(text));
  for (const std::string& text : args.texts("rank-speed")) request.per_stage.rank_speeds.push_back(parse_rank_speed(text));
}

/// --model FILE: the planner's model and cluster, divided into the stages of the chosen schedule
/// (--layers-per-stage, else balanced) and priced with the planner's cost model, in milliseconds. The
/// pipeline size is --ranks (the file's cluster cut into that many stages) or the file's model.pp, and
/// --micro-batches defaults to its model.micro_batches: read_model_file's rule, the module's too.
/// The schedule is built (or its file read) here, once, into `schedule`, for the run to take.
auto read_model(const Args& args, RunRequest& request, std::optional<Schedule>& schedule) -> std::optional<ModelDivision> {
  const auto path = args.text("model");
  if (!path) {
    if (args.has("layers-per-stage")) throw Error(ErrorCode::usage, "--layers-per-stage applies only with --model FILE");
    return std::nullopt;
  }
  for (const char* option : {"cost", "model-cost", "model-stages", "stage-costs"})
    if (args.has(option))
      throw Error(ErrorCode::usage, "--" + std::string(option) + " cannot be given with --model: the model file gives every stage's costs");
  ModelFileSizes sizes{.ranks = std::nullopt, .micro_batches = std::nullopt, .ranks_name = "--ranks"};
  if (args.has("ranks")) sizes.ranks = request.params.ranks;
  if (args.has("micro-batches")) sizes.micro_batches = request.params.micro_batches;
  const PlanInput input = read_model_file(read_input("model", *path, limits::max_small_json_bytes), sizes, request);
  const std::vector<int> layers =
      args.has("layers-per-stage") ? parse_layers_per_stage(*args.text("layers-per-stage")) : std::vector<int>{};
  schedule = build_run_schedule(request);
  return model_request(input, request, *schedule, layers);
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
  return out;
}

/// `simulate --measured`: the run's schedule and costs come from the traces, so nothing else may set them.
auto run_measured(const Args& args) -> int {
  for (const char* name : {"schedule", "ranks", "micro-batches", "virtual-stages", "cost", "schedule-file", "us-per-unit", "model-cost",
                           "stage-cost", "stage-costs", "rank-speed", "timing", "sends"})
    if (args.has(name))
      throw Error(ErrorCode::usage, "--" + std::string(name) + " does not apply with --measured: the traces give the schedule and its costs");
  const std::string format = args.choice_or("format", "text", {"text", "json"});
  const OpNaming naming = args.has("op-names") ? parse_op_naming(*args.text("op-names")) : OpNaming{};
  const std::vector<std::string> paths = measured_trace_paths(*args.text("measured"));
  const std::vector<ProfileTrace> traces = frontend::read_traces(
      paths.size(), [&](std::size_t i) { return read_input("measured", paths[i], limits::max_profile_trace_bytes); },
      [&](std::size_t i) { return "'" + paths[i] + "': "; }, "--measured");
  const Clock clock = frontend::parse_clock(args.text_or("align", "profiler"), "--align");
  const MeasuredPipeline measured = measure_pipeline(traces, naming, clock);
  if (format == "json") std::cout << measured_pipeline_json(measured).dump(2) << "\n";
  else std::cout << render_measured_pipeline_text(measured);
  return 0;
}

}  // namespace

namespace {

/// --format's choices: the terminal view and the summary, then every export format of the table.
auto format_choices() -> std::vector<std::string_view> {
  std::vector<std::string_view> choices{"text", "summary"};
  for (const ExportFormatInfo& f : export_formats()) choices.push_back(f.name);
  return choices;
}

}  // namespace

auto simulate_format_choices() -> std::string {
  std::string out;
  for (const std::string_view choice : format_choices()) out += (out.empty() ? "" : "|") + std::string(choice);
  return out;
}

auto run_simulate(Argv argv) -> int {
  const Args args("simulate", argv,
                  {"schedule", "ranks", "micro-batches", "virtual-stages", "cost", "format", "color", "schedule-file",
                   "us-per-unit", "model-cost", "model-stages", "stage-cost", "stage-costs", "rank-speed", "model",
                   "layers-per-stage", "timing", "sends", "measured", "op-names", "align"},
                  {}, {"stage-cost", "rank-speed"});
  if (args.has("measured")) return run_measured(args);
  for (const char* option : {"op-names", "align"})
    if (args.has(option)) throw Error(ErrorCode::usage, "--" + std::string(option) + " applies only with --measured");
  RunRequest request;
  request.schedule = args.text_or("schedule", args.has("schedule-file") ? "custom" : "dualpipe");
  read_custom_schedule(args, request);
  request.params.ranks = args.count_or("ranks", 8, limits::max_ranks);
  request.params.micro_batches = args.count_or("micro-batches", 20, limits::max_micro_batches);
  request.params.virtual_stages = args.count_or("virtual-stages", 1, limits::max_virtual_stages);
  // The timing before the model: a model run builds its schedule, whose communication program
  // reference timing needs.
  request.timing = parse_timing(args.choice_or("timing", "dataflow", {"dataflow", "reference"}), "--timing");
  check_sends_apply(request.timing, args.has("sends"), "--sends", "--timing reference");
  request.sends = parse_send_mode(args.choice_or("sends", "rendezvous", {"rendezvous", "eager", "async"}), "--sends");
  std::optional<Schedule> schedule;
  const std::optional<ModelDivision> model = read_model(args, request, schedule);
  read_costs(args, request);
  const std::string format = args.choice_or("format", "text", format_choices());
  if (args.has("us-per-unit") && format != "chrome-trace") throw Error(ErrorCode::usage, "--us-per-unit applies only to --format chrome-trace");
  const TraceOptions trace{args.number_or("us-per-unit", TraceOptions{}.us_per_unit, TraceOptions::min_us_per_unit,
                                          TraceOptions::max_us_per_unit)};
  const bool colour = colour_wanted(args);

  const Run run = schedule ? pipesim::run(request, std::move(*schedule)) : pipesim::run(request);
  if (format == "text") {
    std::cout << render_text(run, colour);
  } else if (model && (format == "json" || format == "summary")) {
    // The model's division beside the run (a model's runs are of a real cluster's size, not the limits').
    const Detail detail = format == "json" ? Detail::full : Detail::summary;
    std::cout << model_run_json(*model, run, detail, detail == Detail::full).dump(2) << "\n";
  } else if (format == "summary") {
    std::cout << to_json(run, Detail::summary).dump(2) << "\n";
  } else {
    // Streamed: an export of millions of ops goes out in blocks, never held whole in memory.
    OstreamSink out(std::cout);
    write_export(run, parse_export_format(format), out, trace);
  }
  return 0;
}

auto run_list(Argv argv) -> int {
  const Args args("list", argv, {"format", "lang"});
  const std::string format = args.choice_or("format", "text", {"text", "json", "markdown"});
  const std::string language = args.text_or("lang", "en");
  (void)known_language(language);  // refused whatever the format
  if (format == "json") std::cout << schedules_json().dump(2) << "\n";
  else if (format == "markdown") std::cout << render_schedule_table(language);
  else std::cout << render_schedule_list(language);
  return 0;
}

auto run_presets(Argv argv) -> int {
  const Args args("presets", argv, {"format", "lang"});
  const std::string format = args.choice_or("format", "text", {"text", "json"});
  const std::string language = args.text_or("lang", "en");
  (void)known_language(language);
  if (format == "json") std::cout << presets_json().dump(2) << "\n";
  else std::cout << render_preset_list(language);
  return 0;
}

}  // namespace pipesim::cli
